// The numbers of the SPIR-V 1.3 unified specification (and the extensions named) that kernarg
// emits: opcodes, capabilities, storage classes, decorations, built-ins and execution modes.
// Names are spelled as the specification (and spirv-dis) spell them.

export const MAGIC = 0x07230203;
/** SPIR-V 1.3: the version Vulkan 1.1 consumes natively and Vulkan 1.2 accepts. */
export const VERSION_1_3 = 0x00010300;
/** SPIR-V 1.2: the newest an OpenCL 2.2 environment consumes (spirv-val --target-env opencl2.2). */
export const VERSION_1_2 = 0x00010200;

export const Op = {
  Nop: 0,
  Source: 3,
  Name: 5,
  MemberName: 6,
  String: 7,
  Extension: 10,
  ExtInstImport: 11,
  ExtInst: 12,
  MemoryModel: 14,
  EntryPoint: 15,
  ExecutionMode: 16,
  Capability: 17,
  TypeVoid: 19,
  TypeBool: 20,
  TypeInt: 21,
  TypeFloat: 22,
  TypeVector: 23,
  TypeArray: 28,
  TypeRuntimeArray: 29,
  TypeStruct: 30,
  TypePointer: 32,
  TypeFunction: 33,
  ConstantTrue: 41,
  ConstantFalse: 42,
  Constant: 43,
  ConstantComposite: 44,
  ConstantNull: 46,
  SpecConstant: 50,
  SpecConstantComposite: 51,
  Function: 54,
  FunctionParameter: 55,
  FunctionEnd: 56,
  Variable: 59,
  Load: 61,
  Store: 62,
  AccessChain: 65,
  InBoundsAccessChain: 66,
  InBoundsPtrAccessChain: 70,
  Decorate: 71,
  MemberDecorate: 72,
  CompositeConstruct: 80,
  CompositeExtract: 81,
  ConvertFToS: 110,
  ConvertSToF: 111,
  UConvert: 113,
  SConvert: 114,
  FConvert: 115,
  ConvertPtrToU: 117,
  ConvertUToPtr: 120,
  Bitcast: 124,
  SNegate: 126,
  FNegate: 127,
  IAdd: 128,
  FAdd: 129,
  ISub: 130,
  FSub: 131,
  IMul: 132,
  FMul: 133,
  UDiv: 134,
  SDiv: 135,
  FDiv: 136,
  UMod: 137,
  SRem: 138,
  FRem: 140,
  VectorTimesScalar: 142,
  LogicalEqual: 164,
  LogicalNotEqual: 165,
  LogicalOr: 166,
  LogicalAnd: 167,
  LogicalNot: 168,
  Select: 169,
  IEqual: 170,
  INotEqual: 171,
  SGreaterThan: 173,
  SGreaterThanEqual: 175,
  SLessThan: 177,
  SLessThanEqual: 179,
  FOrdEqual: 180,
  FUnordNotEqual: 183,
  FOrdLessThan: 184,
  FOrdGreaterThan: 186,
  FOrdLessThanEqual: 188,
  FOrdGreaterThanEqual: 190,
  ShiftRightArithmetic: 195,
  ShiftLeftLogical: 196,
  BitwiseOr: 197,
  BitwiseXor: 198,
  BitwiseAnd: 199,
  Not: 200,
  ControlBarrier: 224,
  AtomicExchange: 229,
  AtomicCompareExchange: 230,
  AtomicIAdd: 234,
  // tinytc v0.4's atomics, subgroup instructions and `associated` (codegen/spirv/spmd.ts).
  AtomicLoad: 227,
  AtomicStore: 228,
  AtomicSMin: 236,
  AtomicSMax: 238,
  GroupBroadcast: 263,
  GroupNonUniformShuffle: 345,
  PtrNotEqual: 402,
  AtomicFMinEXT: 5614,
  AtomicFMaxEXT: 5615,
  LoopMerge: 246,
  SelectionMerge: 247,
  Label: 248,
  Branch: 249,
  BranchConditional: 250,
  Return: 253,
  AtomicFAddEXT: 6035,
  // tinytc v0.4's subgroup reductions and scans (codegen/spirv/subgroup-operations.ts): OpenCL's Groups
  // instructions, as tinytc spells them, and Vulkan's GroupNonUniformArithmetic ones.
  GroupIAdd: 264,
  GroupFAdd: 265,
  GroupFMin: 266,
  GroupSMin: 268,
  GroupFMax: 269,
  GroupSMax: 271,
  GroupNonUniformIAdd: 349,
  GroupNonUniformFAdd: 350,
  GroupNonUniformSMin: 353,
  GroupNonUniformFMin: 355,
  GroupNonUniformSMax: 356,
  GroupNonUniformFMax: 358,
} as const;
export type OpName = keyof typeof Op;

/** SPIR-V's GroupOperation operand of the group instructions. */
export const GroupOperation = { Reduce: 0, InclusiveScan: 1, ExclusiveScan: 2 } as const;

export const Capability = {
  Addresses: 4,
  Kernel: 6,
  Shader: 1,
  SubgroupDispatch: 58,
  Float64: 10,
  Int64: 11,
  Int64Atomics: 12,
  Int16: 22,
  Int8: 39,
  StorageBuffer16BitAccess: 4433,
  UniformAndStorageBuffer16BitAccess: 4434,
  StoragePushConstant16: 4435,
  VariablePointersStorageBuffer: 4441,
  StorageBuffer8BitAccess: 4448,
  UniformAndStorageBuffer8BitAccess: 4449,
  StoragePushConstant8: 4450,
  PhysicalStorageBufferAddresses: 5347,
  AtomicFloat32AddEXT: 6033,
  AtomicFloat64AddEXT: 6034,
  // tinytc v0.4's atomics and subgroup instructions (codegen/spirv/spmd.ts).
  Groups: 18,
  GroupNonUniform: 61,
  GroupNonUniformShuffle: 65,
  GroupNonUniformArithmetic: 63,
  AtomicFloat32MinMaxEXT: 5612,
  AtomicFloat64MinMaxEXT: 5613,
  // tinytc v0.4's number types: half arithmetic, bfloat16 conversions (SPV_INTEL_bfloat16_conversion).
  Float16: 9,
  BFloat16ConversionINTEL: 6115,
} as const;
export type CapabilityName = keyof typeof Capability;

export const StorageClass = {
  UniformConstant: 0,
  Input: 1,
  Uniform: 2,
  Workgroup: 4,
  CrossWorkgroup: 5,
  Function: 7,
  PushConstant: 9,
  StorageBuffer: 12,
  PhysicalStorageBuffer: 5349,
} as const;
export type StorageClassName = keyof typeof StorageClass;

export const Decoration = {
  SpecId: 1,
  Block: 2,
  ArrayStride: 6,
  BuiltIn: 11,
  Aliased: 20,
  Constant: 22,
  NonWritable: 24,
  Binding: 33,
  DescriptorSet: 34,
  Offset: 35,
  Alignment: 44,
} as const;
export type DecorationName = keyof typeof Decoration;

export const BuiltIn = {
  NumWorkgroups: 24,
  WorkgroupSize: 25,
  WorkgroupId: 26,
  LocalInvocationId: 27,
  // tinytc v0.4's subgroup built-ins (codegen/spirv/spmd.ts).
  SubgroupSize: 36,
  SubgroupId: 40,
  SubgroupLocalInvocationId: 41,
} as const;
export type BuiltInName = keyof typeof BuiltIn;

export const AddressingModel = { Logical: 0, Physical64: 2, PhysicalStorageBuffer64: 5348 } as const;
export const MemoryModel = { GLSL450: 1, OpenCL: 2 } as const;
export const ExecutionModel = { GLCompute: 5, Kernel: 6 } as const;
export type ExecutionModelName = keyof typeof ExecutionModel;
export const ExecutionMode = { LocalSize: 17, SubgroupSize: 35 } as const;

export const Scope = { CrossDevice: 0, Device: 1, Workgroup: 2, Subgroup: 3 } as const;
/** Memory-semantics bits. */
export const Semantics = {
  None: 0,
  Acquire: 0x2,
  Release: 0x4,
  AcquireRelease: 0x8,
  SequentiallyConsistent: 0x10,
  UniformMemory: 0x40,
  WorkgroupMemory: 0x100,
  CrossWorkgroupMemory: 0x200,
} as const;
/** Memory-operand bits of OpLoad/OpStore. */
export const MemoryAccess = { Aligned: 0x2 } as const;

/** GLSL.std.450 extended instructions kernarg uses. */
export const GLSL_STD_450 = 'GLSL.std.450';
export const Glsl = { FAbs: 4, FrexpStruct: 52, Ldexp: 53 } as const;

/** The OpenCL.std extended instruction set (OpenCL kernels import it; numbers from its specification). */
export const OPENCL_STD = 'OpenCL.std';
export const OpenclStd = { fabs: 23, fmod: 29 } as const;

/** Reverse tables, for the disassembler. */
export function invert<T extends Record<string, number>>(t: T): Map<number, string> {
  return new Map(Object.entries(t).map(([k, v]) => [v, k]));
}
