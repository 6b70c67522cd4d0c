// The two SPIR-V dialects kernarg prints tinytc in: clspv-style Vulkan compute shaders and OpenCL
// kernels as tinytc v0.4 emits them. Everything the shared body printer (kernel.ts and the instruction
// files it calls, gen.ts, collective.ts, gemm.ts) does differently for one of them is a field here; the module printers
// (index.ts for Vulkan, opencl-module.ts for OpenCL) read the rest.
import type { Fence } from '../barriers.js';
import { SpirvBuilder } from '../../emit/spirv/builder.js';
import {
  type AddressingModel,
  type CapabilityName,
  type ExecutionModelName,
  type MemoryModel,
  OPENCL_STD,
  Semantics,
  VERSION_1_2,
  VERSION_1_3,
} from '../../emit/spirv/spec.js';

export type SpirvFlavourName = 'vulkan' | 'opencl';

export interface SpirvFlavour {
  readonly name: SpirvFlavourName;
  /** The header's version word. */
  readonly version: number;
  readonly executionModel: ExecutionModelName;
  readonly addressing: keyof typeof AddressingModel;
  readonly memoryModel: keyof typeof MemoryModel;
  /** Capabilities every module declares (the instructions add what they need). */
  readonly capabilities: readonly CapabilityName[];
  /** Extended instruction sets every module imports. */
  readonly imports: readonly string[];
  /**
   * The component width of the three-component built-ins (LocalInvocationId, WorkgroupId,
   * NumWorkgroups): 32 in Vulkan; the index width in OpenCL under Physical64, so no conversion.
   */
  readonly builtinBits: 32 | 64;
  /** Built-in variables decorated Constant, their pointer types with the Alignment of their pointee and loaded Aligned (tinytc's choice). */
  readonly builtinAlignment: boolean;
  /** The memory-semantics bits of each barrier's memories. */
  readonly fences: Readonly<Record<Fence, number>>;
  /**
   * Integer `rem`: OpSRem where the environment defines it for negative operands as C does (OpenCL);
   * `a - (a / b) * b` where it leaves that undefined (Vulkan: NVIDIA returns 0 for -7 rem 3).
   */
  readonly intRemainder: 'srem' | 'via-division';
  /**
   * Float `rem`: OpFRem where it is C's fmod (OpenCL's environment: LLVM's frem, what tinytc emits);
   * the exact subtraction loop (fmod.ts) where it may be computed as x − y·trunc(x/y) (Vulkan).
   */
  readonly floatRemainder: 'frem' | 'exact-loop';
  /**
   * How a loop's mutable flag (the compare-and-swap loop's `done`) is kept and tested: a bool
   * Function variable under OpLogicalNot, or a 32-bit integer compared with 0 where the consumer needs
   * it — Intel's IGC (ocloc, -spirv_input) exits 1 without a message on the loop whose condition is
   * OpLogicalNot of a bool loaded from a Function variable, aborts on OpLogicalNot of an integer
   * comparison there, and builds the loop whose condition is `flag == 0`.
   */
  readonly loopFlag: 'bool' | 'i32';
  /**
   * How the memref instructions (load, store, atomics, size, subview, expand, fuse) spell a view's
   * dope vector: `folded`, static entries as numbers and arithmetic on them done here (no instruction
   * for a unit stride or a zero index); `run-time`, as tinytc v0.4's converter does (src/spv/converter.cpp):
   * every static entry an OpConstant made where the view is made, an OpIMul by each stride but a static
   * unit first stride, a subview's offset an OpIAdd chain from OpConstantNull and the view a pointer
   * of its own (OpInBoundsPtrAccessChain there). Collective code (GEMM, axpby) keeps the folded view.
   */
  readonly dopeVector: 'folded' | 'run-time';
  /**
   * `constant` instructions (tinytc v0.4): `inline`, each value made where it is first used (an unused
   * one never); `declared`, made where the instruction stands, used or not, as tinytc's converter does.
   */
  readonly constants: 'inline' | 'declared';
  /**
   * Where allocas live: `workgroup-array`, a Workgroup array variable each; `stack`, one byte array per
   * kernel that every alloca is a place in (stack.ts), as tinytc's converter makes it.
   */
  readonly alloca: 'workgroup-array' | 'stack';
}

export const SPIRV_FLAVOURS = {
  vulkan: {
    name: 'vulkan',
    version: VERSION_1_3,
    executionModel: 'GLCompute',
    addressing: 'Logical',
    memoryModel: 'GLSL450',
    capabilities: ['Shader'],
    imports: [],
    builtinBits: 32,
    builtinAlignment: false,
    fences: {
      global: Semantics.AcquireRelease | Semantics.UniformMemory,
      local: Semantics.AcquireRelease | Semantics.WorkgroupMemory,
      both: Semantics.AcquireRelease | Semantics.UniformMemory | Semantics.WorkgroupMemory,
    },
    intRemainder: 'via-division',
    floatRemainder: 'exact-loop',
    loopFlag: 'bool',
    dopeVector: 'folded',
    constants: 'inline',
    alloca: 'workgroup-array',
  },
  opencl: {
    name: 'opencl',
    // The newest version an OpenCL 2.2 consumer takes (spirv-val --target-env opencl2.2).
    version: VERSION_1_2,
    executionModel: 'Kernel',
    addressing: 'Physical64',
    memoryModel: 'OpenCL',
    // Physical64 pointers are 64-bit integers when converted, and tinytc's index type is 64-bit.
    capabilities: ['Addresses', 'Kernel', 'Int64'],
    imports: [OPENCL_STD],
    builtinBits: 64,
    builtinAlignment: true,
    // tinytc's barrier semantics: sequentially consistent over the memories fenced.
    fences: {
      global: Semantics.SequentiallyConsistent | Semantics.CrossWorkgroupMemory,
      local: Semantics.SequentiallyConsistent | Semantics.WorkgroupMemory,
      both: Semantics.SequentiallyConsistent | Semantics.CrossWorkgroupMemory | Semantics.WorkgroupMemory,
    },
    intRemainder: 'srem',
    floatRemainder: 'frem',
    loopFlag: 'i32',
    dopeVector: 'run-time',
    constants: 'declared',
    alloca: 'stack',
  },
} as const satisfies Record<SpirvFlavourName, SpirvFlavour>;

/** A module builder with the flavour's header: version, capabilities, imports and memory model. */
export function flavourModule(f: SpirvFlavour): SpirvBuilder {
  const b = new SpirvBuilder(f.version);
  for (const c of f.capabilities) b.capability(c);
  for (const i of f.imports) b.extInstImport(i);
  b.memoryModel(f.addressing, f.memoryModel);
  return b;
}
