// Which implicit payload arguments IGC adds to a kernel, from the builtins its body (and the
// functions it calls) uses: IGC's work-item functions read them from the cross-thread payload.
import { callsTransitively } from '../../abi/call-graph.js';
import type { FunctionInfo, KernelModule } from '../../model/kernel-module.js';
import type { ZeArgType } from './plan.js';

/** The kernel-wide implicit arguments (no `arg_index`). */
export type WorkItemArg = Extract<
  ZeArgType,
  'enqueued_local_size' | 'global_size' | 'group_count' | 'work_dimensions' | 'local_size' | 'printf_buffer'
>;

/**
 * What each builtin needs, as ocloc shows it: `get_global_id` is computed from the group id, the
 * enqueued local size and the global offset (the payload header); `get_global_linear_id` also
 * from the work dimension and the global size; `get_local_linear_id` from the local size.
 * `get_global_offset`, `get_group_id` and `get_local_id` need nothing beyond the payload header
 * and the thread's own registers.
 */
const BUILTIN_NEEDS = {
  get_global_id: ['enqueued_local_size'],
  get_global_linear_id: ['work_dimensions', 'global_size', 'enqueued_local_size'],
  get_local_size: ['local_size'],
  get_local_linear_id: ['local_size'],
  get_enqueued_local_size: ['enqueued_local_size'],
  get_global_size: ['global_size'],
  get_num_groups: ['group_count'],
  get_work_dim: ['work_dimensions'],
  printf: ['printf_buffer'],
} as const satisfies Record<string, readonly WorkItemArg[]>;

const BUILTINS_NEEDING = Object.entries(BUILTIN_NEEDS);

/** The kernel-wide implicit arguments the kernel needs (unordered). */
export function workItemArgs(module: KernelModule, k: FunctionInfo): Set<WorkItemArg> {
  const out = new Set<WorkItemArg>();
  for (const [builtin, needs] of BUILTINS_NEEDING) {
    if (callsTransitively(module, k, builtin)) for (const n of needs) out.add(n);
  }
  return out;
}

/** Per-image and per-sampler implicit arguments (each with the `arg_index` of the parameter it describes). */
export type ImageArg = Extract<
  ZeArgType,
  | 'image_height'
  | 'image_width'
  | 'image_depth'
  | 'image_array_size'
  | 'image_channel_data_type'
  | 'image_channel_order'
  | 'sampler_snap_wa'
>;

/**
 * What each image query asks for, as ocloc shows it: any size query loads the height and the
 * width (IGC's image size getters read them together), depth and 3-D `get_image_dim` the depth
 * too, `get_image_array_size` the array size; the channel getters their own word. An image read
 * through a sampler parameter adds that sampler's snap workaround word.
 */
const IMAGE_QUERIES = {
  get_image_width: ['image_height', 'image_width'],
  get_image_height: ['image_height', 'image_width'],
  get_image_depth: ['image_height', 'image_width', 'image_depth'],
  get_image_dim: ['image_height', 'image_width'],
  get_image_array_size: ['image_height', 'image_width', 'image_array_size'],
  get_image_channel_data_type: ['image_channel_data_type'],
  get_image_channel_order: ['image_channel_order'],
} as const satisfies Record<string, readonly ImageArg[]>;

const READS = new Set(['read_imagef', 'read_imagei', 'read_imageui', 'read_imageh']);

/**
 * The per-parameter implicit arguments of a kernel: the calls its own body makes with a parameter
 * named as the image (or sampler) argument. `dims3(name)`: whether that parameter is a 3-D image.
 */
export function imageArgs(k: FunctionInfo, dims3: (param: string) => boolean): Map<ImageArg, Set<string>> {
  const out = new Map<ImageArg, Set<string>>();
  const add = (arg: ImageArg, param: string) => {
    let s = out.get(arg);
    if (!s) out.set(arg, (s = new Set()));
    s.add(param);
  };
  for (const call of k.callArgs ?? []) {
    const first = call.args[0]?.text;
    if (first === undefined) continue;
    if (Object.hasOwn(IMAGE_QUERIES, call.name)) {
      for (const a of IMAGE_QUERIES[call.name as keyof typeof IMAGE_QUERIES]) add(a, first);
      if (call.name === 'get_image_dim' && dims3(first)) add('image_depth', first);
    } else if (READS.has(call.name) && call.args.length === 3) add('sampler_snap_wa', call.args[1].text);
  }
  return out;
}

/**
 * The 3-D images IGC marks `image_transformable` (it may read them as 2-D arrays): those read with
 * integer coordinates and never with float ones. kernarg knows a coordinate's type where the call
 * names a parameter or casts (`(int4)(…)`); a read whose coordinate it cannot type counts for neither.
 */
export function transformableImages(
  k: FunctionInfo,
  isImage3d: (param: string) => boolean,
  coordKind: (text: string) => 'int' | 'float' | undefined,
): Set<string> {
  const intRead = new Set<string>();
  const floatRead = new Set<string>();
  if (!k.callArgs?.length) return intRead;
  for (const call of k.callArgs) {
    if (!READS.has(call.name) || call.args.length < 2) continue;
    const image = call.args[0].text;
    if (!isImage3d(image)) continue;
    const kind = coordKind(call.args[call.args.length - 1].text);
    if (kind === 'int') intRead.add(image);
    else if (kind === 'float') floatRead.add(image);
  }
  return new Set([...intRead].filter((i) => !floatRead.has(i)));
}
