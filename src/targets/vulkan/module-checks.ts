// The seed's restrictions on what clspv maps: calls (kernels calling kernels, printf without
// --enable-printf) and parameter types, each refused with clspv's words.
import { type Message, Messages } from '../../diagnostics/messages.js';
import type { Span } from '../../diagnostics/source.js';
import type { FunctionInfo, KernelModule } from '../../model/kernel-module.js';
import { type RecordDecl, type Type, containsType } from '../../types/types.js';
import { assertNever } from '../../assert-never.js';
import type { ArgClass } from '../../model/arg-class.js';
import type { VulkanTargetOptions } from './plan.js';

type Report = (span: Span | undefined, message: Message, args?: readonly (string | number)[]) => void;

/** Kernels calling kernels, and printf where the options do not enable it. */
export function checkCalls(
  module: KernelModule,
  kernels: readonly FunctionInfo[],
  o: VulkanTargetOptions,
  err: Report,
): void {
  // Made at the first call: most functions of a file of very many kernels call nothing.
  let kernelNames: ReadonlySet<string> | undefined;
  for (const f of module.functions) {
    for (const c of f.calls) {
      kernelNames ??= new Set(kernels.map((k) => k.name));
      if (kernelNames.has(c.name)) err(c.span, Messages.vkKernelCallsKernel, [f.name, c.name]);
      if (c.name === 'printf' && !o.enablePrintf) err(c.span, Messages.vkPrintf);
    }
  }
}

/**
 * OpenCL C 3.0 program-scope `global` variables: clspv lists
 * `__opencl_c_program_scope_global_variables` as unsupported (lib/FeatureMacro.cpp), so its clang
 * refuses them in clang's words; none of the reflection instructions for them
 * (ProgramScopeVariablesStorageBuffer, -PointerRelocation, -PointerPushConstant) is ever emitted.
 * OpenCL C 2.0 requires the feature, and clspv has no test of it there: not checked.
 */
export function checkProgramScope(module: KernelModule, err: Report): void {
  if (module.clVersion < 300) return;
  for (const v of module.variables) if (v.space === 'global') err(v.span, Messages.vkProgramScopeGlobal, [v.name]);
}

/** The parameter types clspv refuses (`classOf`: a parameter type's argument class). */
export function checkParams(
  kernels: readonly FunctionInfo[],
  classOf: (t: FunctionInfo['params'][number]['type']) => ArgClass,
  o: VulkanTargetOptions,
  err: Report,
): void {
  for (let i = 0; i < kernels.length; i++) {
    const params = kernels[i].params;
    for (let j = 0; j < params.length; j++) checkParam(params[j], classOf(params[j].type), o, err);
  }
}

/**
 * What the POD checks ask of a record, worked out once per declaration (kernels pass the same structs again and again).
 */
interface RecordFacts {
  readonly longVector: boolean;
  readonly pointer: boolean;
}
const recordFacts = new WeakMap<RecordDecl, RecordFacts>();
const isLongVector = (x: Type) => x.kind === 'vector' && x.length > 4;
const isPointer = (x: Type) => x.kind === 'pointer';

function factsOf(t: Extract<Type, { kind: 'record' }>): RecordFacts {
  let f = recordFacts.get(t.decl);
  if (!f) {
    // Only a complete record's answers are final (an incomplete one has no fields to walk yet).
    const q = { type: t };
    f = { longVector: containsType(q, isLongVector), pointer: containsType(q, isPointer) };
    if (t.decl.fields) recordFacts.set(t.decl, f);
  }
  return f;
}

function checkParam(p: FunctionInfo['params'][number], arg: ArgClass, o: VulkanTargetOptions, err: Report): void {
  switch (arg.kind) {
    // clspv takes half pointers (its tests pass `global half*`): they are buffers of 16-bit floats,
    // whose needs (Float16, StorageBuffer16BitAccess) vulkanRequirements and checkBufferStorage add.
    case 'buffer':
    case 'local':
      break;
    case 'pipe':
      err(p.span, Messages.vkPipe);
      break;
    case 'queue':
      err(p.span, Messages.vkQueue, [p.name]);
      break;
    case 'pod': {
      const t = arg.type;
      if (t.kind === 'record') {
        const f = factsOf(t);
        if (!o.longVector && f.longVector) err(p.span, Messages.vkLongVector);
        if (f.pointer) err(p.span, Messages.vkStructWithPointers);
        break;
      }
      if (!o.longVector && (t.kind === 'vector' || t.kind === 'array') && containsType(p.type, isLongVector))
        err(p.span, Messages.vkLongVector);
      break;
    }
    case 'image':
    case 'sampler':
    case 'event':
    case 'opaque':
      break;
    default:
      assertNever(arg);
  }
}
