import {
  AddressingModel,
  Capability,
  type CapabilityName,
  Decoration,
  type DecorationName,
  ExecutionMode,
  ExecutionModel,
  type ExecutionModelName,
  MAGIC,
  MemoryModel,
  Op,
  StorageClass,
  type StorageClassName,
  VERSION_1_3,
} from './spec.js';
import { NumberOp } from './number-ops.js';
import { halfBits } from '../../layout/half.js';

/** One instruction as words: the opcode, then its operands (result type and result id included). */
type Inst = number[];

/** The words of a literal string: UTF-8, NUL-terminated, padded to a whole word. */
export function stringWords(s: string): number[] {
  const bytes = new TextEncoder().encode(s);
  const words = new Array<number>(Math.floor(bytes.length / 4) + 1).fill(0);
  bytes.forEach((b, i) => (words[i >> 2] |= b << (8 * (i & 3))));
  return words.map((w) => w >>> 0);
}

/**
 * A SPIR-V module under construction, section by section in the order the logical layout
 * requires. Result ids are handed out in creation order; types and constants are de-duplicated
 * by their operands (structs are not: each carries its own decorations).
 */
export class SpirvBuilder {
  private bound = 1;
  private readonly capabilities = new Set<number>();
  private readonly extensions = new Set<string>();
  private readonly imports = new Map<string, number>();
  private addressing: number = AddressingModel.Logical;
  private memory: number = MemoryModel.GLSL450;
  private readonly entryPoints: Inst[] = [];
  private readonly modes: Inst[] = [];
  private readonly debugStrings: Inst[] = [];
  private readonly names: Inst[] = [];
  private readonly annotations: Inst[] = [];
  private readonly globals: Inst[] = [];
  private readonly functions: Inst[] = [];
  /** Non-semantic instructions placed after the functions (as clspv places its reflection). */
  private readonly trailer: Inst[] = [];
  private readonly interned = new Map<string, number>();
  private readonly strings = new Map<string, number>();
  private readonly intWidths = new Map<number, number>();
  /** Vulkan features the module's instructions need beyond what its capabilities name (see requirements.ts). */
  readonly vulkanFeatures = new Set<string>();

  /** `version`: the header's SPIR-V version word (1.3, what Vulkan 1.1 consumes, unless a flavour says otherwise). */
  constructor(private readonly version: number = VERSION_1_3) {}

  id(): number {
    return this.bound++;
  }

  capability(c: CapabilityName): void {
    this.capabilities.add(Capability[c]);
  }

  extension(e: string): void {
    this.extensions.add(e);
  }

  extInstImport(name: string): number {
    let id = this.imports.get(name);
    if (id === undefined) {
      id = this.id();
      this.imports.set(name, id);
    }
    return id;
  }

  physicalAddressing(): void {
    this.addressing = AddressingModel.PhysicalStorageBuffer64;
  }

  /** OpMemoryModel's operands (default: Logical GLSL450). */
  memoryModel(addressing: keyof typeof AddressingModel, memory: keyof typeof MemoryModel): void {
    this.addressing = AddressingModel[addressing];
    this.memory = MemoryModel[memory];
  }

  entryPoint(fn: number, name: string, interfaceIds: readonly number[], model: ExecutionModelName = 'GLCompute'): void {
    this.entryPoints.push([Op.EntryPoint, ExecutionModel[model], fn, ...stringWords(name), ...interfaceIds]);
  }

  localSize(fn: number, x: number, y: number, z: number): void {
    this.modes.push([Op.ExecutionMode, fn, ExecutionMode.LocalSize, x, y, z]);
  }

  /** An OpenCL kernel's required subgroup size (the SubgroupDispatch capability declares it). */
  subgroupSize(fn: number, size: number): void {
    this.capability('SubgroupDispatch');
    this.modes.push([Op.ExecutionMode, fn, ExecutionMode.SubgroupSize, size]);
  }

  name(id: number, s: string): void {
    this.names.push([Op.Name, id, ...stringWords(s)]);
  }

  memberName(id: number, member: number, s: string): void {
    this.names.push([Op.MemberName, id, member, ...stringWords(s)]);
  }

  /** An OpString, one per distinct text. */
  string(s: string): number {
    let id = this.strings.get(s);
    if (id === undefined) {
      id = this.id();
      this.strings.set(s, id);
      this.debugStrings.push([Op.String, id, ...stringWords(s)]);
    }
    return id;
  }

  decorate(id: number, d: DecorationName, ...literals: number[]): void {
    this.annotations.push([Op.Decorate, id, Decoration[d], ...literals]);
  }

  memberDecorate(id: number, member: number, d: DecorationName, ...literals: number[]): void {
    this.annotations.push([Op.MemberDecorate, id, member, Decoration[d], ...literals]);
  }

  private intern(key: string, make: (id: number) => Inst): number {
    let id = this.interned.get(key);
    if (id === undefined) {
      id = this.id();
      this.interned.set(key, id);
      this.globals.push(make(id));
    }
    return id;
  }

  typeVoid(): number {
    return this.intern('void', (id) => [Op.TypeVoid, id]);
  }
  typeBool(): number {
    return this.intern('bool', (id) => [Op.TypeBool, id]);
  }
  /** Integers are unsigned types, as clspv makes them; the instructions say how to treat the bits. */
  typeInt(width: number): number {
    const id = this.intern(`int${width}`, (i) => [Op.TypeInt, i, width, 0]);
    this.intWidths.set(id, width);
    return id;
  }
  typeFloat(width: number): number {
    return this.intern(`float${width}`, (id) => [Op.TypeFloat, id, width]);
  }
  typeVector(component: number, count: number): number {
    return this.intern(`vec${component}x${count}`, (id) => [Op.TypeVector, id, component, count]);
  }
  typePointer(sc: StorageClassName, pointee: number): number {
    return this.intern(`ptr${sc}:${pointee}`, (id) => [Op.TypePointer, id, StorageClass[sc], pointee]);
  }
  /**
   * A pointer type decorated with the Alignment its pointees have (as tinytc declares its kernels'
   * pointers): one per (storage class, pointee, alignment), apart from the undecorated one.
   */
  typePointerAligned(sc: StorageClassName, pointee: number, alignment: number): number {
    let fresh = false;
    const id = this.intern(
      `ptr${sc}:${pointee}@${alignment}`,
      (i) => ((fresh = true), [Op.TypePointer, i, StorageClass[sc], pointee]),
    );
    if (fresh) this.decorate(id, 'Alignment', alignment);
    return id;
  }
  typeFunction(result: number, params: readonly number[] = []): number {
    return this.intern(`fn${result}(${params.join(',')})`, (id) => [Op.TypeFunction, id, result, ...params]);
  }
  /** A fixed array: its length is a 32-bit constant. */
  typeArray(element: number, length: number): number {
    const len = this.constant(this.typeInt(32), BigInt(length));
    return this.intern(`arr${element}x${len}`, (id) => [Op.TypeArray, id, element, len]);
  }
  /** A runtime array with its ArrayStride; one per (element, stride). */
  typeRuntimeArray(element: number, stride: number): number {
    let fresh = false;
    const id = this.intern(`rta${element}/${stride}`, (i) => ((fresh = true), [Op.TypeRuntimeArray, i, element]));
    if (fresh) this.decorate(id, 'ArrayStride', stride);
    return id;
  }
  /** An undecorated struct (results of extended instructions), shared by its members. */
  typePlainStruct(members: readonly number[]): number {
    return this.intern(`struct(${members.join(',')})`, (id) => [Op.TypeStruct, id, ...members]);
  }

  /** A new struct type (never shared: blocks carry their own decorations). */
  typeStruct(members: readonly number[]): number {
    const id = this.id();
    this.globals.push([Op.TypeStruct, id, ...members]);
    return id;
  }

  /** A scalar constant of an integer or float type, from its bits (64-bit types take two words, low first). */
  constantBits(type: number, width: number, bits: bigint): number {
    const lo = Number(bits & 0xffffffffn);
    const words = width === 64 ? [lo, Number((bits >> 32n) & 0xffffffffn)] : [lo];
    return this.intern(`c${type}:${bits}`, (id) => [Op.Constant, type, id, ...words]);
  }

  /** An integer constant of the type made by typeInt(width); negative values wrap. */
  constant(type: number, value: bigint, width = this.widthOf(type)): number {
    const mask = (1n << BigInt(width)) - 1n;
    return this.constantBits(type, width, BigInt.asUintN(width, value) & mask);
  }

  floatConstant(type: number, width: 16 | 32 | 64, value: number): number {
    // A half from the value rounded to float first, as tinytc's `half{static_cast<float>(d)}` makes it.
    if (width === 16) return this.constantBits(type, 16, BigInt(halfBits(value)));
    const dv = new DataView(new ArrayBuffer(8));
    if (width === 32) {
      dv.setFloat32(0, value, true);
      return this.constantBits(type, 32, BigInt(dv.getUint32(0, true)));
    }
    dv.setFloat64(0, value, true);
    return this.constantBits(type, 64, dv.getBigUint64(0, true));
  }

  /** An OpConstantComposite (a complex number's two parts), one per (type, parts). */
  constantComposite(type: number, parts: readonly number[]): number {
    return this.intern(`cc${type}:${parts.join(',')}`, (id) => [NumberOp.ConstantComposite, type, id, ...parts]);
  }

  /** The OpConstantNull of a type, one per type. */
  constantNull(type: number): number {
    return this.intern(`null${type}`, (id) => [NumberOp.ConstantNull, type, id]);
  }

  bool(value: boolean): number {
    const t = this.typeBool();
    return this.intern(`b${value}`, (id) => [value ? Op.ConstantTrue : Op.ConstantFalse, t, id]);
  }

  private widthOf(type: number): number {
    const w = this.intWidths.get(type);
    if (w === undefined) throw new Error(`SPIR-V builder: %${type} is not an integer type`);
    return w;
  }

  specConstant(type: number, value: number): number {
    const id = this.id();
    this.globals.push([Op.SpecConstant, type, id, value]);
    return id;
  }

  specConstantComposite(type: number, parts: readonly number[]): number {
    const id = this.id();
    this.globals.push([Op.SpecConstantComposite, type, id, ...parts]);
    return id;
  }

  /** A module-scope OpVariable. */
  variable(pointerType: number, sc: StorageClassName): number {
    const id = this.id();
    this.globals.push([Op.Variable, pointerType, id, StorageClass[sc]]);
    return id;
  }

  /** Appends finished function instructions (see FunctionBuilder). */
  addFunction(words: readonly Inst[]): void {
    this.functions.push(...words);
  }

  /** A non-semantic OpExtInst after the functions; returns its result id. */
  nonSemantic(set: number, instruction: number, operands: readonly number[]): number {
    const id = this.id();
    this.trailer.push([Op.ExtInst, this.typeVoid(), id, set, instruction, ...operands]);
    return id;
  }

  get extensionNames(): string[] {
    return [...this.extensions];
  }

  /** The capabilities declared so far, by name. */
  get capabilityNames(): string[] {
    const names = new Map<number, string>(Object.entries(Capability).map(([k, v]) => [v, k]));
    return [...this.capabilities].sort((a, b) => a - b).map((c) => names.get(c)!);
  }

  build(): Uint32Array {
    const sections = [
      this.entryPoints,
      this.modes,
      this.debugStrings,
      this.names,
      this.annotations,
      this.globals,
      this.functions,
      this.trailer,
    ];
    const head: Inst[] = [
      ...[...this.capabilities].sort((a, b) => a - b).map((c) => [Op.Capability, c]),
      ...[...this.extensions].map((e) => [Op.Extension, ...stringWords(e)]),
      ...[...this.imports].map(([name, id]) => [Op.ExtInstImport, id, ...stringWords(name)]),
      [Op.MemoryModel, this.addressing, this.memory],
    ];
    let total = 5;
    for (const list of [head, ...sections]) for (const inst of list) total += inst.length;
    const out = new Uint32Array(total);
    out.set([MAGIC, this.version, 0, this.bound, 0]);
    let at = 5;
    for (const list of [head, ...sections]) {
      for (const inst of list) {
        out[at++] = ((inst.length << 16) | inst[0]) >>> 0;
        for (let i = 1; i < inst.length; i++) out[at++] = inst[i] >>> 0;
      }
    }
    return out;
  }
}
