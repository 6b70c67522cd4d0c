// What clang's NVPTX target lacks that SPIR has (its OpenCLOptions for nvptx*-nvidia-nvcl, checked
// with clang-16, 19 and 22): no cl_khr_fp16, cl_khr_3d_image_writes or
// cl_khr_gl_msaa_sharing, and in OpenCL C 3.0 none of the optional features of images, pipes and
// device-side enqueue. Sources that use them are refused, as clang refuses them.
import { Messages } from '../../diagnostics/messages.js';
import type { DiagnosticBag } from '../../diagnostics/diagnostic.js';
import type { KernelModule } from '../../model/kernel-module.js';
import { classifyArg } from '../../model/arg-class.js';
import { clangTypeString } from '../../types/print.js';
import { canonical } from '../../types/types.js';
import { assertNever } from '../../assert-never.js';

/** The extension or feature a kernel parameter's type needs that NVPTX does not declare, or undefined. */
function missingFeature(p: KernelModule['functions'][number]['params'][number], clVersion: number): string | undefined {
  const arg = classifyArg(p.type);
  switch (arg.kind) {
    case 'image':
      if (clVersion >= 300) return '__opencl_c_images';
      if (arg.shape.msaa) return 'cl_khr_gl_msaa_sharing';
      if (arg.image === 'image3d_t' && arg.access === 'write_only') return 'cl_khr_3d_image_writes';
      return undefined;
    case 'sampler':
      return clVersion >= 300 ? '__opencl_c_images' : undefined;
    case 'pipe':
      return clVersion >= 300 ? '__opencl_c_pipes' : undefined;
    case 'queue':
    case 'event':
      return clVersion >= 300 ? '__opencl_c_device_enqueue' : undefined;
    case 'buffer':
    case 'local':
    case 'pod':
    case 'opaque':
      return undefined;
    default:
      return assertNever(arg);
  }
}

/**
 * The sub-group builtins (cl_khr_subgroups, OpenCL C 2.0's __opencl_c_subgroups): opencl-c.h declares
 * them only where the target supports the extension, which NVPTX does not, so clang-16/19/22 refuse a
 * call as an undeclared identifier.
 */
const SUBGROUP_BUILTIN =
  /^(get_(sub_group_size|max_sub_group_size|num_sub_groups|enqueued_num_sub_groups|sub_group_id|sub_group_local_id)|sub_group_[a-z_]+)$/;

/** Reports every use NVPTX refuses; true when there was none. */
export function checkNvptxFeatures(module: KernelModule, diags: DiagnosticBag): boolean {
  let ok = true;
  // The module's own function names, made only when a call is named like a sub-group builtin (a file of 190,000
  // kernels hashed all their names here for none: issue 30).
  let declared: ReadonlySet<string> | undefined;
  for (const f of module.functions) {
    for (const c of f.calls) {
      if (!SUBGROUP_BUILTIN.test(c.name)) continue;
      // A function of the source's own with that name is no builtin: clang compiles the call.
      declared ??= new Set(module.functions.map((g) => g.name));
      if (declared.has(c.name)) continue;
      diags.report(Messages.cudaNoSubgroups, c.span, [c.name]);
      ok = false;
    }
  }
  // Parameters of one type need one answer: a file's kernels share a few type objects (the frontend interns them).
  const featureOf = new Map<KernelModule['functions'][number]['params'][number]['type'], string | undefined>();
  for (const f of module.functions) {
    if (!f.isKernel) continue;
    for (const p of f.params) {
      let feature = featureOf.get(p.type);
      if (feature === undefined && !featureOf.has(p.type))
        featureOf.set(p.type, (feature = missingFeature(p, module.clVersion)));
      if (!feature) continue;
      diags.report(Messages.cudaNeedsFeature, p.span, [clangTypeString(p.type), feature]);
      ok = false;
    }
  }
  for (const v of module.variables) {
    // clang refuses half variables and arrays of half (a struct with a half field it accepts).
    let t = canonical(v.type).type;
    while (t.kind === 'array') t = canonical(t.element).type;
    if (t.kind !== 'scalar' || t.name !== 'half') continue;
    diags.report(Messages.cudaHalfVariable, v.span, [clangTypeString(v.type)]);
    ok = false;
  }
  return ok;
}
