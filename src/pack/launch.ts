// What every packer shares: its options, the launch it packs for, and the checks of names, values,
// addresses and hidden values with their exact errors.
import type { Writer } from './compiled.js';
import { PackError, RuntimeInputError, ValueError } from './errors.js';
import { describe } from './scalars.js';

export interface PackOptions {
  /** Use the interpreted writer even where code generation is allowed. */
  readonly interpreted?: boolean;
}

/** The launch geometry hidden and implicit arguments are filled from. */
export interface LaunchInfo {
  readonly global: readonly number[];
  readonly local?: readonly number[];
  readonly globalOffset?: readonly number[];
  /** Addresses for hidden pointers (printf buffer, default queue, ...), by value kind or setup-argument name. */
  readonly hidden?: Readonly<Record<string, bigint>>;
}

/** An image argument's description: what implicit image-size, image-format and image-address slots carry. */
export interface ImageDescription {
  readonly width: number;
  readonly height?: number;
  readonly depth?: number;
  /** cl_channel_order and cl_channel_type values (CL_RGBA = 0x10B5, CL_FLOAT = 0x10DE, ...). */
  readonly channelOrder: number;
  readonly channelType: number;
  /** The image's device address, where a kernarg segment holds it. */
  readonly address?: bigint;
}

export type Args = Readonly<Record<string, unknown>>;

/** The named kernel of a plan; a missing one is the user's mistake, not an argument's. */
export function kernelOf<K extends { readonly name: string }>(
  plan: { readonly kernels: readonly K[] },
  kernel: string,
): K {
  const k = plan.kernels.find((x) => x.name === kernel);
  if (!k)
    throw new RuntimeInputError(
      `no kernel named '${kernel}' (have ${plan.kernels.map((x) => x.name).join(', ') || 'none'})`,
    );
  return k;
}

const nameSets = new WeakMap<readonly string[], Set<string>>();

/** Every argument given once, none unknown; one pass over the given keys. */
export function checkNames(kernel: string, names: readonly string[], args: Args): void {
  if (typeof args !== 'object' || args === null)
    throw new PackError(kernel, '(arguments)', `expected an object of arguments, got ${describe(args)}`);
  let set = nameSets.get(names);
  if (!set) nameSets.set(names, (set = new Set(names)));
  // Own properties only: a key such as `__proto__` or an inherited one never supplies an argument.
  // for-in with an own-key check rather than Object.keys: no array is made per call.
  for (const k in args)
    if (Object.hasOwn(args, k) && !set.has(k))
      throw new PackError(kernel, k, `'${kernel}' has no argument '${k}' (it takes ${names.join(', ') || 'none'})`);
  for (let i = 0; i < names.length; i++)
    if (!Object.hasOwn(args, names[i])) throw new PackError(kernel, names[i], 'missing');
}

export function writeValue(kernel: string, w: Writer, view: DataView, offset: number, name: string, v: unknown): void {
  try {
    w(view, offset, v, name);
  } catch (e) {
    if (e instanceof ValueError) throw new PackError(kernel, e.path, e.problem);
    throw e;
  }
}

export function address(kernel: string, name: string, v: unknown): bigint {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return BigInt(v);
  if (typeof v === 'object' && v !== null && 'address' in v && typeof (v as { address: unknown }).address === 'bigint')
    return (v as { address: bigint }).address;
  throw new PackError(kernel, name, `expected a device address (bigint) or an object with one, got ${describe(v)}`);
}

/** A hidden pointer's address from `launch.hidden` (own keys only), 0 when not given. */
export function hiddenValue(kernel: string, launch: LaunchInfo, key: string): bigint {
  const h = launch.hidden;
  if (!h || !Object.hasOwn(h, key)) return 0n;
  const v = h[key];
  if (typeof v !== 'bigint' || v < 0n || v > 0xffffffffffffffffn)
    throw new PackError(kernel, key, `a hidden address takes a bigint from 0 to 2^64-1, got ${describe(v)}`);
  return v;
}
