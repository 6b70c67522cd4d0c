import type { Fact } from './view.js';

export type Severity = 'breaking' | 'compatible';

export interface Verdict {
  readonly class: Severity;
  readonly reason: string;
}

const breaking = (reason: string): Verdict => ({ class: 'breaking', reason });
const compatible = (reason: string): Verdict => ({ class: 'compatible', reason });

/** Why a changed slot property matters to a host built against the old ABI. */
export function slotPropertyVerdict(prop: string, hidden: boolean): Verdict {
  switch (prop) {
    case 'index':
      return breaking('the host passes this argument at another clSetKernelArg index');
    case 'offset':
      return breaking(hidden ? 'the host fills this hidden value at other bytes' : 'the host writes this value at other bytes');
    case 'pushConstantOffset':
      return breaking('the host pushes this value at another push-constant offset');
    case 'size':
      return breaking('the host writes a different number of bytes');
    case 'kind':
      return breaking(hidden ? 'the host must fill these bytes with something else' : 'the host must pass another kind of object');
    case 'reflection':
      return compatible('the reflection instruction follows the kind; the kind change, if any, is listed apart');
    case 'layout':
      return breaking('the bytes encode another type or field arrangement');
    case 'addressSpace':
      return breaking('the argument lives in another address space (another kind of memory object)');
    case 'access':
      return breaking('the image or pipe is accessed differently (the host creates it with other flags)');
    case 'descriptorSet':
      return breaking('the host binds this resource in another descriptor set');
    case 'binding':
      return breaking('the host binds this resource at another binding');
    case 'specId':
      return breaking('the host sizes this local array through another specialization constant');
    case 'elemSize':
      return breaking('the local array counts elements of another size');
    case 'pointeeAlign':
      return breaking('the runtime must align this local block differently');
    case 'resourceId':
      return breaking('the kernel reads this image or sampler from another resource slot');
    case 'irType':
      return breaking('the lowered argument has another IR type');
    case 'align':
      return compatible('the alignment alone changes no byte the host writes (an offset change is listed apart)');
    case 'typeName':
      return compatible('the type is spelled differently; its bytes are compared by size and layout');
    case 'baseType':
    case 'typeQual':
      return compatible('metadata only: what the host writes does not change');
    default:
      return breaking(`'${prop}' changed`);
  }
}

/** Why a changed kernel-level fact matters. */
export function kernelFactVerdict(fact: string, oldValue: Fact, newValue: Fact): Verdict {
  switch (fact) {
    case 'segmentSize':
      return breaking('the host allocates and copies a kernel-argument segment of another size');
    case 'segmentAlign':
      return typeof oldValue === 'number' && typeof newValue === 'number' && newValue < oldValue
        ? compatible('the segment needs less alignment than before')
        : breaking('the host must align the kernel-argument segment more strictly');
    case 'podPlacement':
      return breaking('the POD arguments travel another way (storage buffer, uniform buffer or push constants)');
    case 'podSize':
      return breaking('the host allocates a POD block of another size');
    case 'podOffset':
      return breaking('the POD block starts at another push-constant offset');
    case 'reqdWorkGroupSize':
      return breaking('the launch must use the required work-group size');
    case 'workGroupSizeHint':
    case 'vecTypeHint':
      return compatible('a hint: launches stay valid');
    case 'intelReqdSubGroupSize':
      return breaking('the kernel requires another sub-group size');
    case 'userSgprCount':
    case 'setupPointerSgprs':
    case 'argsPointerSgprs':
    case 'flatBasesSgprs':
      return breaking('kernel code written for the old user-SGPR layout reads the wrong registers');
    default:
      return breaking(`'${fact}' changed`);
  }
}

/** Module facts that describe the build rather than what a host passes. */
const DESCRIPTIVE = new Set(['arch', 'codeObject', 'llvm', 'mcpu', 'bits', 'driver', 'use', 'gfx9', 'triple', 'metadata', 'localSize']);

/** Why a changed module-level fact matters. */
export function moduleFactVerdict(fact: string, oldValue: Fact, newValue: Fact): Verdict {
  if (DESCRIPTIVE.has(fact)) return compatible('describes the build; what it changes is listed per kernel and slot');
  const kind = fact.split(' ')[0];
  switch (kind) {
    case 'capability':
    case 'vulkanFeature':
    case 'vulkanExtension':
      return newValue === null ? compatible('no longer required of the device') : breaking('a device created with the old list lacks it');
    case 'specConstant':
      return newValue === null ? compatible('the host may still set it; Vulkan ignores unknown ids') : breaking('the host must set this specialization constant by its id');
    case 'descriptorSet':
      return oldValue === null ? breaking('the pipeline layout needs a new descriptor set') : breaking('the descriptor set holds something else');
    case 'pushConstant':
    case 'pushConstantRange':
      return breaking('the host pushes module values at other offsets or sizes');
    case 'literalSampler':
      return breaking('the host creates and binds literal samplers at other places');
    case 'constantData':
      return breaking('the host uploads other module-constant bytes or binds them elsewhere');
    case 'printfBuffer':
      return breaking('the host provides the printf buffer another way');
    case 'printfInfo':
      return breaking('the host decodes printf records with other format strings or argument sizes');
    default:
      return breaking(`'${fact}' changed`);
  }
}
