// The launch geometry hidden and implicit slots are filled from: checked once per call and read
// into the packer's own record (nothing is allocated per call).
import { LaunchError } from './errors.js';
import type { LaunchInfo } from './launch.js';
import type { GeometryField } from './placement.js';

export interface Geometry {
  dims: number;
  global: [number, number, number];
  local: [number, number, number];
  offset: [number, number, number];
}

export function newGeometry(): Geometry {
  return { dims: 1, global: [1, 1, 1], local: [1, 1, 1], offset: [0, 0, 0] };
}

/** Whether `v` is `n` whole numbers from `min` to 2^32-1 (a loop: nothing is allocated). */
function sizes(v: unknown, n: number, min: number): boolean {
  if (!Array.isArray(v) || v.length !== n) return false;
  for (let i = 0; i < n; i++) if (!Number.isSafeInteger(v[i]) || v[i] < min || v[i] > 0xffffffff) return false;
  return true;
}

/** Checks the launch geometry and reads it into `g`. */
export function readGeometry(kernel: string, l: LaunchInfo, g: Geometry): void {
  const global = l.global;
  const n = Array.isArray(global) ? global.length : 0;
  if (n < 1 || n > 3 || !sizes(global, n, 1))
    throw new LaunchError(kernel, 'the global size must be 1 to 3 whole numbers from 1 to 2^32-1');
  const s = n > 1 ? 's' : '';
  if (l.local !== undefined && !sizes(l.local, n, 1))
    throw new LaunchError(
      kernel,
      `the local size must be ${n} whole number${s} from 1 to 2^32-1, like the global size`,
    );
  if (l.globalOffset !== undefined && !sizes(l.globalOffset, n, 0))
    throw new LaunchError(
      kernel,
      `the global offset must be ${n} whole number${s} from 0 to 2^32-1, like the global size`,
    );
  g.dims = n;
  for (let i = 0; i < 3; i++) {
    g.global[i] = global[i] ?? 1;
    g.local[i] = l.local?.[i] ?? 1;
    g.offset[i] = l.globalOffset?.[i] ?? 0;
  }
}

/** Each geometry field's value on an axis. */
export const GEOMETRY: Readonly<Record<GeometryField, (g: Geometry, axis: 0 | 1 | 2) => number>> = {
  'global-offset': (g, axis) => g.offset[axis],
  'block-count': (g, axis) => Math.ceil(g.global[axis] / g.local[axis]),
  'group-size': (g, axis) => g.local[axis],
  remainder: (g, axis) => g.global[axis] % g.local[axis],
  'grid-dims': (g) => g.dims,
};
