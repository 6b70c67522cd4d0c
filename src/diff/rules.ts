import type { Fact } from './view.js';

export type Severity = 'breaking' | 'compatible';

export interface Verdict {
  readonly class: Severity;
  readonly reason: string;
}

const breaking = (reason: string): Verdict => ({ class: 'breaking', reason });
const compatible = (reason: string): Verdict => ({ class: 'compatible', reason });

/** Whether both values are numbers and the new one is the smaller (an alignment relaxed). */
const shrinks = (oldValue: Fact, newValue: Fact) =>
  typeof oldValue === 'number' && typeof newValue === 'number' && newValue < oldValue;

/**
 * PTX pointer spaces whose addresses are the same value: a device address is global and generic at once (unified
 * addressing).
 */
const GLOBAL_OR_GENERIC: readonly Fact[] = ['global', 'generic'];

/**
 * Why a changed slot property matters to a host built against the old ABI (the values: for rules that depend on the
 * direction).
 */
export function slotPropertyVerdict(
  prop: string,
  hidden: boolean,
  oldValue: Fact = null,
  newValue: Fact = null,
): Verdict {
  switch (prop) {
    case 'index':
      return breaking('the host passes this argument at another clSetKernelArg index');
    case 'offset':
      return breaking(
        hidden ? 'the host fills this hidden value at other bytes' : 'the host writes this value at other bytes',
      );
    case 'pushConstantOffset':
      return breaking('the host pushes this value at another push-constant offset');
    case 'size':
      return breaking('the host writes a different number of bytes');
    case 'kind':
      return breaking(
        hidden ? 'the host must fill these bytes with something else' : 'the host must pass another kind of object',
      );
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
      // The runtime places each local block at this alignment (amdhsa's pointee_align, zebin's
      // slm_alignment): one that places it for a larger old value still meets a smaller new one.
      return shrinks(oldValue, newValue)
        ? compatible(
            'the local block needs less alignment: a runtime placing it for the old value still meets the new one',
          )
        : breaking('the runtime must align this local block more strictly');
    case 'resourceId':
      return breaking('the kernel reads this image or sampler from another resource slot');
    case 'irType':
      return breaking('the lowered argument has another IR type');
    // cuda: the `.param` type (u32, f32, b8 array…) and, for `.ptr` parameters, the space and alignment of the pointee.
    case 'ptxType':
      return breaking('the kernel reads the parameter as another PTX type: the same bytes mean another value');
    case 'space':
      return GLOBAL_OR_GENERIC.includes(oldValue) && GLOBAL_OR_GENERIC.includes(newValue)
        ? compatible(
            'a device address is the same value in the global and the generic window (unified addressing): the host ' +
              'passes the same pointer',
          )
        : breaking(
            'the pointer points into another state space: the host passes another kind of memory (a device buffer, ' +
              'a constant bank, a shared-memory block)',
          );
    case 'ptrAlign':
      // `.ptr .align N` is a promise the compiler builds on (wider loads); cuLaunchKernel copies the
      // pointer as 8 bytes and checks nothing, so only a relaxed promise keeps old hosts safe.
      return shrinks(oldValue, newValue)
        ? compatible(
            'the kernel assumes less alignment of the pointee: every pointer that met the old value meets the new one',
          )
        : breaking(
            'the kernel assumes a more aligned pointee and cuLaunchKernel checks nothing: a pointer aligned only ' +
              'for the old value may be misaligned',
          );
    // zebin: how the runtime binds a buffer, where a by-value struct's pieces go, image and sampler entries.
    case 'addrmode':
      return breaking(
        'the runtime passes the buffer another way (a stateless address in the payload, a stateful binding-table ' +
          'surface, or SLM)',
      );
    case 'pieces':
      return breaking("the runtime copies the struct's bytes (source_offset pieces) to other payload places");
    case 'imageType':
      return breaking('the kernel reads another image type: the host creates another kind of image');
    case 'imageTransformable':
      return breaking(
        'the runtime must describe a 3-D image differently (as a 2-D array where image_transformable is set)',
      );
    case 'samplerIndex':
      return breaking('the runtime programs this sampler at another sampler-state index');
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
const DESCRIPTIVE = new Set([
  'arch',
  'sm',
  'codeObject',
  'llvm',
  'mcpu',
  'bits',
  'driver',
  'use',
  'gfx9',
  'triple',
  'metadata',
  'localSize',
  'device',
]);

/** Why a changed module-level fact matters. */
export function moduleFactVerdict(fact: string, oldValue: Fact, newValue: Fact): Verdict {
  if (DESCRIPTIVE.has(fact)) return compatible('describes the build; what it changes is listed per kernel and slot');
  const kind = fact.split(' ')[0];
  switch (kind) {
    case 'capability':
    case 'vulkanFeature':
    case 'vulkanExtension':
      return newValue === null
        ? compatible('no longer required of the device')
        : breaking('a device created with the old list lacks it');
    case 'specConstant':
      return newValue === null
        ? compatible('the host may still set it; Vulkan ignores unknown ids')
        : breaking('the host must set this specialization constant by its id');
    case 'descriptorSet':
      return oldValue === null
        ? breaking('the pipeline layout needs a new descriptor set')
        : breaking('the descriptor set holds something else');
    case 'pushConstant':
    case 'pushConstantRange':
      return breaking('the host pushes module values at other offsets or sizes');
    case 'literalSampler':
      return breaking('the host creates and binds literal samplers at other places');
    case 'constantData':
      return breaking('the host uploads other module-constant bytes or binds them elsewhere');
    case 'localMemory':
      return breaking(
        'local pointer arguments reach the kernel another way (a shared-window address or an offset into one extern ' +
          'array) and pocl adds trailing parameters',
      );
    case 'printfBuffer':
      return breaking('the host provides the printf buffer another way');
    case 'printfInfo':
      return breaking('the host decodes printf records with other format strings or argument sizes');
    default:
      return breaking(`'${fact}' changed`);
  }
}
