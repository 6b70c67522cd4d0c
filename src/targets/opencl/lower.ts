import { DATA_LAYOUTS, type DataLayout } from '../../layout/data-layout.js';
import { layoutOf } from '../../layout/layout.js';
import type { GeneratedCode } from '../../model/generated-code.js';
import { type FunctionInfo, type KernelModule, kernelsOf } from '../../model/kernel-module.js';
import { KernelShapeMemo } from '../../abi/kernel-shape-memo.js';
import { kernelArgTypeName, kernelArgTypeQual } from '../../types/print.js';
import { assertNever } from '../../assert-never.js';
import { type ArgClass, classifyArg } from '../../model/arg-class.js';
import type { Bare, OpenCLArgKind, OpenCLKernelPlan, OpenCLPlan, OpenCLSlot, SlotRole } from '../../abi/plan.js';
import { placeOpenclKernel } from './placement.js';
import { type Draft, originParam, originRole, withOriginDetail } from '../../abi/origin.js';
import { valueLayout } from '../../layout/value-layout.js';

export interface OpenCLTargetOptions {
  /** Device address width for by-value sizes: spir (32-bit) or spir64 (default). */
  readonly arch?: 'spir' | 'spir64';
}

/** Handles (buffers, images, samplers, queues, pipes) are passed as 8-byte `cl_mem`/`cl_sampler` values. */
const HANDLE_SIZE = 8;

type OpenCLKindOf = {
  readonly kind: OpenCLArgKind;
  readonly role: SlotRole;
  readonly addressSpace?: 'global' | 'constant' | 'local';
};
// One answer object per class (read-only), not one per argument.
const GLOBAL_BUFFER: OpenCLKindOf = { kind: 'buffer', role: 'data', addressSpace: 'global' };
const CONSTANT_BUFFER: OpenCLKindOf = { kind: 'buffer', role: 'data', addressSpace: 'constant' };
const LOCAL: OpenCLKindOf = { kind: 'local', role: 'local', addressSpace: 'local' };
const IMAGE: OpenCLKindOf = { kind: 'image', role: 'image' };
const PIPE: OpenCLKindOf = { kind: 'pipe', role: 'pipe' };
const SAMPLER: OpenCLKindOf = { kind: 'sampler', role: 'sampler' };
const QUEUE: OpenCLKindOf = { kind: 'queue', role: 'queue' };
const VALUE: OpenCLKindOf = { kind: 'value', role: 'value' };

/** The clSetKernelArg kind and slot role of each argument class. */
function openclKind(a: ArgClass): OpenCLKindOf {
  switch (a.kind) {
    case 'buffer':
      return a.space === 'constant' ? CONSTANT_BUFFER : GLOBAL_BUFFER;
    case 'local':
      return LOCAL;
    case 'image':
      return IMAGE;
    case 'pipe':
      return PIPE;
    case 'sampler':
      return SAMPLER;
    case 'queue':
      return QUEUE;
    case 'pod':
    case 'event':
    case 'opaque':
      return VALUE;
    default:
      return assertNever(a);
  }
}

/**
 * The `clSetKernelArg` plan: one slot per parameter, in order. `generated` (tinytc input): the kernels whose work-group
 * size kernarg chose.
 */
export function lowerOpenCL(
  module: KernelModule,
  options: OpenCLTargetOptions = {},
  generated?: GeneratedCode,
): OpenCLPlan {
  const { head, kernels } = openclKernelwise(module, options, generated);
  return { ...head, kernels: Array.from({ [Symbol.iterator]: kernels }) };
}

/** `lowerOpenCL` a kernel at a time: each kernel's slots are its own parameters', nothing crosses kernels. */
export function openclKernelwise(
  module: KernelModule,
  options: OpenCLTargetOptions = {},
  generated?: GeneratedCode,
): { head: Omit<OpenCLPlan, 'kernels'>; count: number; kernels: () => Iterator<OpenCLKernelPlan> } {
  const arch = options.arch ?? 'spir64';
  const dl = DATA_LAYOUTS[arch];
  const kernels = kernelsOf(module);
  return {
    head: { target: 'opencl', arch },
    count: kernels.length,
    *kernels() {
      // tinytc's chosen work-group sizes are looked up by name: its kernels are each made anew.
      if (generated) for (const k of kernels) yield openclKernel(k, dl, generated);
      else {
        const memo = new KernelShapeMemo<OpenCLKernelPlan>(module);
        const make = (k: FunctionInfo) => openclKernel(k, dl, undefined);
        for (const k of kernels) yield memo.plan(k, make);
      }
    },
  };
}

function openclKernel(k: FunctionInfo, dl: DataLayout, generated: GeneratedCode | undefined): OpenCLKernelPlan {
  const args: Bare<OpenCLSlot>[] = k.params.map((p) => {
    const arg = classifyArg(p.type);
    const { kind, role, addressSpace } = openclKind(arg);
    const typeName = kernelArgTypeName(p.type);
    const typeQual = kernelArgTypeQual(p.type);
    const size = kind === 'local' ? null : kind === 'value' ? layoutOf(p.type, dl).size : HANDLE_SIZE;
    // One literal (the slot's fields sit in the object, not in a store grown write by write), with
    // a derived parameter's dim and host after role (withOriginDetail).
    const slot: Draft<Bare<OpenCLSlot>> = withOriginDetail(
      {
        name: p.name,
        param: originParam(p),
        role: originRole(p, role),
        index: p.index,
        kind,
        typeName,
        typeQual,
        size,
        type: p.type,
      },
      p,
    );
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
}
