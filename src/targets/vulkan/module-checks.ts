// The seed's restrictions on what clspv maps: calls (kernels calling kernels, printf without
// --enable-printf) and parameter types, each refused with clspv's words.
import { type Message, Messages } from '../../diagnostics/messages.js';
import type { Span } from '../../diagnostics/source.js';
import type { FunctionInfo, KernelModule } from '../../model/kernel-module.js';
import { containsType } from '../../types/types.js';
import { assertNever } from '../../assert-never.js';
import type { ArgClass } from '../../model/arg-class.js';
import type { VulkanTargetOptions } from './plan.js';

type Report = (span: Span | undefined, message: Message, args?: readonly (string | number)[]) => void;

/** Kernels calling kernels, and printf where the options do not enable it. */
export function checkCalls(module: KernelModule, kernels: readonly FunctionInfo[], o: VulkanTargetOptions, err: Report): void {
  const kernelNames = new Set(kernels.map((k) => k.name));
  for (const f of module.functions) {
    for (const c of f.calls) {
      if (kernelNames.has(c.name)) err(c.span, Messages.vkKernelCallsKernel, [f.name, c.name]);
      if (c.name === 'printf' && !o.enablePrintf) err(c.span, Messages.vkPrintf);
    }
  }
}

/** The parameter types clspv refuses (`classes`: each kernel's parameters' argument classes). */
export function checkParams(kernels: readonly FunctionInfo[], classes: readonly (readonly ArgClass[])[], o: VulkanTargetOptions, err: Report): void {
  kernels.forEach((k, i) => k.params.forEach((p, j) => checkParam(p, classes[i][j], o, err)));
}

function checkParam(p: FunctionInfo['params'][number], arg: ArgClass, o: VulkanTargetOptions, err: Report): void {
  switch (arg.kind) {
    case 'buffer':
    case 'local': {
      const pointee = arg.pointee.type;
      if ((pointee.kind === 'scalar' && pointee.name === 'half') || (pointee.kind === 'vector' && pointee.element === 'half')) err(p.span, Messages.vkHalfPointer, [p.name]);
      break;
    }
    case 'image':
      if (arg.shape.buffer) err(p.span, Messages.vkImage1dBuffer, [p.name]);
      break;
    case 'pipe':
      err(p.span, Messages.vkPipe);
      break;
    case 'queue':
      err(p.span, Messages.vkQueue, [p.name]);
      break;
    case 'pod': {
      const t = arg.type;
      if (!o.longVector && (t.kind === 'vector' || t.kind === 'array' || t.kind === 'record') && containsType(p.type, (x) => x.kind === 'vector' && x.length > 4)) err(p.span, Messages.vkLongVector);
      if (t.kind === 'record' && containsType(p.type, (x) => x.kind === 'pointer')) err(p.span, Messages.vkStructWithPointers);
      break;
    }
    case 'sampler':
    case 'event':
    case 'opaque':
      break;
    default:
      assertNever(arg);
  }
}
