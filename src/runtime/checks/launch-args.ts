// The logical arguments of one tinytc launch, checked before anything is allocated, shared by the
// OpenCL and Vulkan launches: every name given is a parameter's and every parameter is given; each
// memref (memref.ts, through the launch's own buffer kind) and each group (its members, its offset,
// a member for each of howmany work-groups); then the extents the body ties together (shape-ties.ts).
import type { IrType, MemrefType } from '../../frontend/tinytc/ast.js';
import { PackError } from '../../pack/errors.js';
import type { CheckedMemref } from './memref.js';
import { type ShapeTie, checkShapeTies } from './shape-ties.js';

/** A group argument after its checks: each member checked, and the offset every member is read from. */
export interface CheckedGroup<B> {
  readonly members: CheckedMemref<B>[];
  readonly offset: number;
}

/** The checked memrefs and groups, by argument name. */
export interface CheckedArgs<B> {
  readonly memrefs: Map<string, CheckedMemref<B>>;
  readonly groups: Map<string, CheckedGroup<B>>;
}

export function checkLaunchArgs<B>(
  kernel: string,
  params: ReadonlyMap<string, IrType>,
  args: unknown,
  howmany: number,
  ties: readonly ShapeTie[],
  memref: (name: string, t: MemrefType, v: unknown, offset: number) => CheckedMemref<B>,
): CheckedArgs<B> {
  if (typeof args !== 'object' || args === null)
    throw new PackError(kernel, '(arguments)', 'expected an object of arguments');
  for (const key of Object.keys(args))
    if (!params.has(key))
      throw new PackError(
        kernel,
        key,
        `@${kernel} has no argument '${key}' (it takes ${[...params.keys()].join(', ') || 'none'})`,
      );
  for (const [name] of params) if (!Object.hasOwn(args, name)) throw new PackError(kernel, name, 'missing');
  const memrefs = new Map<string, CheckedMemref<B>>();
  const groups = new Map<string, CheckedGroup<B>>();
  const shapes = new Map<string, number[] | number[][]>();
  for (const [name, type] of params) {
    const v = (args as Readonly<Record<string, unknown>>)[name];
    if (type.kind === 'memref') {
      const m = memref(name, type, v, 0);
      memrefs.set(name, m);
      shapes.set(name, m.shape);
    } else if (type.kind === 'group') {
      const g = v as { readonly group?: unknown; readonly offset?: unknown };
      if (typeof g !== 'object' || g === null || !Array.isArray(g.group) || g.group.length === 0)
        throw new PackError(kernel, name, 'a group takes {group: [memref, ...], offset?}');
      const offset = g.offset ?? type.offset ?? 0;
      if (typeof offset !== 'number' || !Number.isSafeInteger(offset) || offset < 0)
        throw new PackError(
          kernel,
          `${name}.offset`,
          `a group offset is a non-negative whole number of elements, not ${String(offset)}`,
        );
      if (type.offset !== null && offset !== type.offset)
        throw new PackError(
          kernel,
          `${name}.offset`,
          `${offset} differs from the declared static offset ${type.offset}`,
        );
      if (g.group.length < howmany)
        throw new PackError(
          kernel,
          name,
          `the group has ${g.group.length} member${g.group.length > 1 ? 's' : ''}, but howmany ${howmany} ` +
            `launches ${howmany} work-groups and work-group i reads member i`,
        );
      const members = (g.group as unknown[]).map((m, i) => memref(`${name}[${i}]`, type.memref, m, offset));
      groups.set(name, { members, offset });
      shapes.set(
        name,
        members.map((m) => m.shape),
      );
    }
  }
  checkShapeTies(kernel, ties, shapes, howmany);
  return { memrefs, groups };
}
