// tinytc IR as an OpenCL SPIR-V module, as tinytc v0.4 emits it (`tinytc-oc -S`): every function an
// OpenCL `Kernel` entry point under Physical64 addressing and the OpenCL memory model, its
// parameters the calling convention's (CrossWorkgroup pointers whose types carry the Alignment of
// their pointees, 64-bit shapes, strides and offsets, scalars), built-ins as Input variables, the
// OpenCL.std set imported. The body is the shared SPIR-V printer's (kernel.ts) over the same lowered
// kernel the OpenCL C and Vulkan printers read; SPIRV_FLAVOURS.opencl holds what differs.
import type { QualType } from '../../types/types.js';
import type { ScalarTypeName } from '../../frontend/tinytc/ast.js';
import { kernelsOf } from '../../model/kernel-module.js';
import { FunctionBuilder } from '../../emit/spirv/function.js';
import { disassemble } from '../../emit/spirv/disassemble.js';
import type { CompiledTinytc } from '../compile-tinytc.js';
import type { BlasPolicy } from '../blas-policy.js';
import { perGemmPolicy } from '../gemm-local-budget.js';
import { Builtins } from './builtins.js';
import { SPIRV_FLAVOURS, flavourModule } from './flavour.js';
import { Gen } from './gen.js';
import type { BodyEnv } from './body-scope.js';
import { emitKernelBody } from './kernel.js';
import { bitsRoots } from './roots.js';

export interface TinytcOpenclSpirvOptions {
  /** GEMM variants and the axpby vector width where they differ from the compiled unit's OpenCL policy. */
  readonly blas?: Partial<BlasPolicy>;
}

/** The SPIR-V scalar each OpenCL C scalar of the calling convention is (integers are signless in SPIR-V). */
const SCALAR_TYPE = {
  bool: 'i1',
  char: 'i8',
  uchar: 'i8',
  short: 'i16',
  ushort: 'i16',
  int: 'i32',
  uint: 'i32',
  long: 'i64',
  ulong: 'i64',
  float: 'f32',
  double: 'f64',
  half: 'f16',
} as const;

/** tinytc v0.4's complex numbers, which the calling convention gives as OpenCL C 2-vectors. */
const COMPLEX_TYPE = { float: 'c32', double: 'c64' } as const;

/** The tinytc scalar an OpenCL C scalar or 2-vector of the calling convention stands for, or undefined. */
function scalarOf(t: QualType['type']): ScalarTypeName | undefined {
  if (t.kind === 'scalar' && t.name in SCALAR_TYPE) return SCALAR_TYPE[t.name as keyof typeof SCALAR_TYPE];
  if (t.kind === 'vector' && t.length === 2 && t.element in COMPLEX_TYPE)
    return COMPLEX_TYPE[t.element as keyof typeof COMPLEX_TYPE];
  return undefined;
}

/** A calling-convention parameter's SPIR-V type: a scalar, or a CrossWorkgroup pointer to one, or to pointers (group tables). */
function parameterType(g: Gen, t: QualType, kernel: string, param: string): number {
  const ty = t.type;
  const value = scalarOf(ty);
  if (value) return g.type(value);
  if (ty.kind === 'pointer') {
    const p = ty.pointee.type;
    const element = scalarOf(p);
    if (element) return g.pointerTo(element);
    const member = p.kind === 'pointer' ? scalarOf(p.pointee.type) : undefined;
    if (member) return g.pointerTableOf(member);
  }
  // The tinytc calling convention makes no other parameter: reaching here is kernarg's bug.
  throw new Error(
    `tinytc OpenCL SPIR-V: parameter ${param} of ${kernel} has a type the calling convention does not make`,
  );
}

/**
 * The module: one `Kernel` entry point per function, its interface the built-ins it reads (SPIR-V
 * 1.2 lists Input variables only), LocalSize from its work-group size, its OpName; parameters in
 * the calling convention's order, by slot name for the body (pointers for data and tables, values
 * for the rest).
 */
export function emitTinytcOpenclSpirv(compiled: CompiledTinytc, options: TinytcOpenclSpirvOptions = {}): Uint32Array {
  const flavour = SPIRV_FLAVOURS.opencl;
  const b = flavourModule(flavour);
  const blas: BlasPolicy = { ...compiled.policy.blas.opencl, ...options.blas };
  const voidT = b.typeVoid();
  const builtins = new Builtins(b, flavour);
  for (const info of kernelsOf(compiled.module)) {
    const lowered = compiled.kernel(info.name);
    const fb = new FunctionBuilder(b, voidT, 0);
    const g = new Gen(b, fb, flavour);
    // One function type per parameter list, shared by the kernels that have it (as tinytc's).
    const types = info.params.map((p) => parameterType(g, p.type, info.name, p.name));
    fb.type(b.typeFunction(voidT, types));
    const bySlot = new Map(info.params.map((p, i) => [p.name, fb.param(types[i])]));
    const slot = (name: string) => {
      const id = bySlot.get(name);
      if (id === undefined) throw new Error(`tinytc OpenCL SPIR-V: ${info.name} has no parameter ${name}`);
      return id;
    };
    const roots = bitsRoots(lowered, false);
    const reader = builtins.reader(g, fb);
    const env: BodyEnv = {
      pointer: (name) =>
        info.params.find((p) => p.name === name)?.type.type.kind === 'pointer' ? slot(name) : undefined,
      buffer: () => undefined,
      vectorBuffer: () => {
        throw new Error(
          'tinytc OpenCL SPIR-V: kernel pointers are read as vectors through pointer casts, not storage-buffer aliases',
        );
      },
      pod: slot,
      builtin: reader.read,
      scalarBuiltin: reader.readScalar,
      workgroupArray: (t, n, bits, lanes) => g.workgroupArray(t, n, bits, lanes),
      bits: (root) => roots.has(root),
      floatAtomicAdd: false,
      blas: perGemmPolicy(blas, lowered.func),
      flavour,
    };
    emitKernelBody(g, lowered, env);
    b.addFunction(fb.finish());
    b.entryPoint(fb.id, info.name, [...reader.used], flavour.executionModel);
    const wg = info.attributes.reqdWorkGroupSize;
    if (wg) b.localSize(fb.id, wg[0], wg[1], wg[2]);
    if (info.attributes.intelReqdSubGroupSize) b.subgroupSize(fb.id, info.attributes.intelReqdSubGroupSize);
    b.name(fb.id, info.name);
    info.params.forEach((p) => b.name(bySlot.get(p.name)!, p.name));
  }
  return b.build();
}

/**
 * The opencl target's `spirv` (the module's bytes) and `spirv-asm` formats: the text with numeric
 * ids, as `tinytc-oc -S` and `spirv-dis --raw-id` print them (tinytc's FileCheck lines match ids as numbers),
 * float constants in hexadecimal as tinytc-oc prints them (its FileCheck lines pin `0x1.5p+5`).
 */
export function renderOpenclSpirv(
  format: 'spirv' | 'spirv-asm',
  compiled: CompiledTinytc | undefined,
): string | Uint8Array {
  if (!compiled) throw new RangeError(`--format ${format} needs tinytc input`);
  const words = emitTinytcOpenclSpirv(compiled);
  return format === 'spirv-asm'
    ? disassemble(words, { rawIds: true, floats: 'hex' })
    : new Uint8Array(words.buffer, words.byteOffset, words.byteLength);
}
