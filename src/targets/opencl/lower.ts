import { DATA_LAYOUTS } from '../../layout/data-layout.js';
import { layoutOf } from '../../layout/layout.js';
import type { GeneratedCode } from '../../model/generated-code.js';
import { type KernelModule, kernelsOf } from '../../model/kernel-module.js';
import { kernelArgTypeName, kernelArgTypeQual } from '../../types/print.js';
import { type QualType, canonical } from '../../types/types.js';
import type { OpenCLArgKind, OpenCLKernelPlan, OpenCLPlan, OpenCLSlot, SlotRole } from '../../abi/plan.js';
import { type Draft, setOrigin } from '../../abi/origin.js';
import { valueLayout } from '../../layout/value-layout.js';

export interface OpenCLTargetOptions {
  /** Device address width for by-value sizes: spir (32-bit) or spir64 (default). */
  readonly arch?: 'spir' | 'spir64';
}

/** Handles (buffers, images, samplers, queues, pipes) are passed as 8-byte `cl_mem`/`cl_sampler` values. */
const HANDLE_SIZE = 8;

function classify(t: QualType): { kind: OpenCLArgKind; role: SlotRole; addressSpace?: 'global' | 'constant' | 'local' } {
  const c = canonical(t);
  const ty = c.type;
  if (ty.kind === 'pointer') {
    const space = canonical(ty.pointee).space;
    if (space === 'local') return { kind: 'local', role: 'local', addressSpace: 'local' };
    return { kind: 'buffer', role: 'data', addressSpace: space === 'constant' ? 'constant' : 'global' };
  }
  if (ty.kind === 'image') return { kind: 'image', role: 'image' };
  if (ty.kind === 'pipe') return { kind: 'pipe', role: 'pipe' };
  if (ty.kind === 'opaque' && ty.name === 'sampler_t') return { kind: 'sampler', role: 'sampler' };
  if (ty.kind === 'opaque' && ty.name === 'queue_t') return { kind: 'queue', role: 'queue' };
  return { kind: 'value', role: 'value' };
}

/** The `clSetKernelArg` plan: one slot per parameter, in order. `generated` (tinytc input): the kernels whose work-group size kernarg chose. */
export function lowerOpenCL(module: KernelModule, options: OpenCLTargetOptions = {}, generated?: GeneratedCode): OpenCLPlan {
  const arch = options.arch ?? 'spir64';
  const dl = DATA_LAYOUTS[arch];
  const kernels: OpenCLKernelPlan[] = kernelsOf(module).map((k) => {
    const args: OpenCLSlot[] = k.params.map((p) => {
      const { kind, role, addressSpace } = classify(p.type);
      const slot = { name: p.name } as Draft<OpenCLSlot>;
      setOrigin(slot, p, role);
      slot.index = p.index;
      slot.kind = kind;
      slot.typeName = kernelArgTypeName(p.type);
      slot.typeQual = kernelArgTypeQual(p.type);
      slot.size = kind === 'local' ? null : kind === 'value' ? layoutOf(p.type, dl).size : HANDLE_SIZE;
      slot.type = p.type;
      if (addressSpace) slot.addressSpace = addressSpace;
      if (kind === 'image' || kind === 'pipe') slot.access = canonical(p.type).access ?? 'read_only';
      if (kind === 'value') slot.layout = valueLayout(p.type, dl);
      return slot;
    });
    const plan: { -readonly [K in keyof OpenCLKernelPlan]: OpenCLKernelPlan[K] } = { name: k.name, args };
    const a = k.attributes;
    if (a.reqdWorkGroupSize) plan.reqdWorkGroupSize = a.reqdWorkGroupSize;
    if (a.workGroupSizeHint) plan.workGroupSizeHint = a.workGroupSizeHint;
    if (a.vecTypeHint) plan.vecTypeHint = kernelArgTypeName(a.vecTypeHint);
    if (a.intelReqdSubGroupSize) plan.intelReqdSubGroupSize = a.intelReqdSubGroupSize;
    if (generated?.chosenWorkGroupSize.has(k.name)) plan.workGroupSizeChosen = true;
    return plan;
  });
  return { target: 'opencl', arch, kernels };
}
