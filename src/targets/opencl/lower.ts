import { DATA_LAYOUTS } from '../../layout/data-layout.js';
import { layoutOf } from '../../layout/layout.js';
import type { GeneratedCode } from '../../model/generated-code.js';
import { type KernelModule, kernelsOf } from '../../model/kernel-module.js';
import { kernelArgTypeName, kernelArgTypeQual } from '../../types/print.js';
import { assertNever } from '../../assert-never.js';
import { type ArgClass, classifyArg } from '../../model/arg-class.js';
import type { Bare, OpenCLArgKind, OpenCLKernelPlan, OpenCLPlan, OpenCLSlot, SlotRole } from '../../abi/plan.js';
import { placeOpenclKernel } from './placement.js';
import { type Draft, setOrigin } from '../../abi/origin.js';
import { valueLayout } from '../../layout/value-layout.js';

export interface OpenCLTargetOptions {
  /** Device address width for by-value sizes: spir (32-bit) or spir64 (default). */
  readonly arch?: 'spir' | 'spir64';
}

/** Handles (buffers, images, samplers, queues, pipes) are passed as 8-byte `cl_mem`/`cl_sampler` values. */
const HANDLE_SIZE = 8;

/** The clSetKernelArg kind and slot role of each argument class. */
function openclKind(a: ArgClass): { kind: OpenCLArgKind; role: SlotRole; addressSpace?: 'global' | 'constant' | 'local' } {
  switch (a.kind) {
    case 'buffer':
      return { kind: 'buffer', role: 'data', addressSpace: a.space };
    case 'local':
      return { kind: 'local', role: 'local', addressSpace: 'local' };
    case 'image':
      return { kind: 'image', role: 'image' };
    case 'pipe':
      return { kind: 'pipe', role: 'pipe' };
    case 'sampler':
      return { kind: 'sampler', role: 'sampler' };
    case 'queue':
      return { kind: 'queue', role: 'queue' };
    case 'pod':
    case 'event':
    case 'opaque':
      return { kind: 'value', role: 'value' };
    default:
      return assertNever(a);
  }
}

/** The `clSetKernelArg` plan: one slot per parameter, in order. `generated` (tinytc input): the kernels whose work-group size kernarg chose. */
export function lowerOpenCL(module: KernelModule, options: OpenCLTargetOptions = {}, generated?: GeneratedCode): OpenCLPlan {
  const arch = options.arch ?? 'spir64';
  const dl = DATA_LAYOUTS[arch];
  const kernels: OpenCLKernelPlan[] = kernelsOf(module).map((k) => {
    const args: Bare<OpenCLSlot>[] = k.params.map((p) => {
      const arg = classifyArg(p.type);
      const { kind, role, addressSpace } = openclKind(arg);
      const slot = { name: p.name } as Draft<Bare<OpenCLSlot>>;
      setOrigin(slot, p, role);
      slot.index = p.index;
      slot.kind = kind;
      slot.typeName = kernelArgTypeName(p.type);
      slot.typeQual = kernelArgTypeQual(p.type);
      slot.size = kind === 'local' ? null : kind === 'value' ? layoutOf(p.type, dl).size : HANDLE_SIZE;
      slot.type = p.type;
      if (addressSpace) slot.addressSpace = addressSpace;
      if (arg.kind === 'image' || arg.kind === 'pipe') slot.access = arg.access;
      if (kind === 'value') slot.layout = valueLayout(p.type, dl);
      return slot;
    });
    const plan: Draft<Omit<OpenCLKernelPlan, 'args'>> & { args: Bare<OpenCLSlot>[] } = { name: k.name, args };
    const a = k.attributes;
    if (a.reqdWorkGroupSize) plan.reqdWorkGroupSize = a.reqdWorkGroupSize;
    if (a.workGroupSizeHint) plan.workGroupSizeHint = a.workGroupSizeHint;
    if (a.vecTypeHint) plan.vecTypeHint = kernelArgTypeName(a.vecTypeHint);
    if (a.intelReqdSubGroupSize) plan.intelReqdSubGroupSize = a.intelReqdSubGroupSize;
    if (generated?.chosenWorkGroupSize.has(k.name)) plan.workGroupSizeChosen = true;
    return placeOpenclKernel(plan);
  });
  return { target: 'opencl', arch, kernels };
}
