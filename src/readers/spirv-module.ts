// A bounds-checked SPIR-V binary reader: the header and the instructions of the module-level
// sections a plan is read from (names, decorations, types, constants, variables, entry points,
// execution modes, function parameters). Every word read is checked against the end of the
// module first, so a truncated or hostile binary gives a `Malformed` with its byte offset, never
// an exception out of bounds or a hang (each instruction advances by its nonzero word count).
import { Decoration, ExecutionMode, MAGIC, Op, StorageClass } from '../emit/spirv/spec.js';
import { Reflection } from '../emit/spirv/clspv-reflection.js';

/**
 * The SPIR-V numbers this reader needs that kernarg's emitter (spec.ts) does not emit, spelled
 * as the unified specification spells them.
 */
export const MoreOp = {
  TypeMatrix: 24,
  TypeImage: 25,
  TypeSampler: 26,
  TypeSampledImage: 27,
  TypeOpaque: 31,
  TypeEvent: 34,
  TypeDeviceEvent: 35,
  TypeReserveId: 36,
  TypeQueue: 37,
  TypePipe: 38,
  SpecConstantTrue: 48,
  SpecConstantFalse: 49,
  FunctionParameter: 55,
  ExecutionModeId: 331,
  DecorateId: 332,
  DecorateString: 5632,
  MemberDecorateString: 5633,
} as const;
export const MoreDecoration = {
  BufferBlock: 3,
  MatrixStride: 7,
  CPacked: 10,
  NonReadable: 25,
  FuncParamAttr: 38,
  Alignment: 44,
  UserTypeGOOGLE: 5636,
} as const;
export const MoreStorageClass = { CrossWorkgroup: 5, Image: 11 } as const;
export const MoreExecutionModel = { Kernel: 6 } as const;
/**
 * Execution modes beside LocalSize: an OpenCL kernel's attributes (work_group_size_hint, vec_type_hint,
 * intel_reqd_sub_group_size).
 */
export const MoreExecutionMode = { LocalSizeHint: 18, VecTypeHint: 30, SubgroupSize: 35, LocalSizeId: 38 } as const;

const FUNCTION_CALL = 57;

/** clspv's reflection instructions for arguments at a descriptor binding: kernel, ordinal, set, binding first. */
const DESCRIPTOR_ARGUMENTS: ReadonlySet<number> = new Set([
  Reflection.ArgumentStorageBuffer,
  Reflection.ArgumentUniform,
  Reflection.ArgumentPodStorageBuffer,
  Reflection.ArgumentPodUniform,
  Reflection.ArgumentSampledImage,
  Reflection.ArgumentStorageImage,
  Reflection.ArgumentSampler,
]);

/** A SPIR-V module the header and structure of which are broken: where, and what. */
export class Malformed {
  constructor(
    readonly byteOffset: number,
    readonly reason: string,
  ) {}
}

export type SpvType =
  | {
      readonly kind:
        'void' | 'bool' | 'sampler' | 'event' | 'device-event' | 'reserve-id' | 'queue' | 'pipe' | 'opaque';
    }
  | { readonly kind: 'int'; readonly width: number; readonly signed: boolean }
  | { readonly kind: 'float'; readonly width: number }
  | { readonly kind: 'vector'; readonly component: number; readonly count: number }
  | { readonly kind: 'matrix'; readonly column: number; readonly count: number }
  | { readonly kind: 'array'; readonly element: number; readonly length: number }
  | { readonly kind: 'runtime-array'; readonly element: number }
  | { readonly kind: 'struct'; readonly members: readonly number[] }
  | { readonly kind: 'pointer'; readonly storageClass: number; readonly pointee: number }
  | {
      readonly kind: 'image';
      readonly dim: number;
      readonly depth: number;
      readonly arrayed: number;
      readonly ms: number;
      readonly sampled: number;
      readonly format: number;
      readonly access?: number;
    }
  | { readonly kind: 'sampled-image'; readonly image: number }
  | { readonly kind: 'function'; readonly result: number; readonly params: readonly number[] };

export interface SpvEntryPoint {
  readonly model: number;
  readonly fn: number;
  readonly name: string;
  readonly interface: readonly number[];
  /** Where its instruction starts, for diagnostics. */
  readonly byteOffset: number;
}

export interface SpvModule {
  readonly version: number;
  /** OpMemoryModel's addressing model (0 Logical, 1 Physical32, 2 Physical64), -1 when absent. */
  addressing: number;
  /** Where each type, constant and variable is defined (byte offset of its instruction), for diagnostics. */
  readonly offsets: Map<number, number>;
  readonly names: Map<number, string>;
  readonly memberNames: Map<number, Map<number, string>>;
  /** id → decoration → its literal operands (the last of a repeated decoration wins). */
  readonly decorations: Map<number, Map<number, readonly number[]>>;
  readonly memberDecorations: Map<number, Map<number, Map<number, readonly number[]>>>;
  readonly types: Map<number, SpvType>;
  /** 32-bit (and narrower) integer constants and spec constants: their low word. */
  readonly constants: Map<number, number>;
  /** Spec constants (OpSpecConstant*), in module order: id and result type. */
  readonly specConstants: { readonly id: number; readonly type: number }[];
  /** OpSpecConstantComposite ids (a work-group size made of spec constants is one). */
  readonly specComposites: Set<number>;
  /** Module-scope OpVariable: id → pointer type and storage class. */
  readonly variables: Map<number, { readonly type: number; readonly storageClass: number }>;
  readonly entryPoints: SpvEntryPoint[];
  /** entry function id → mode → literal (or id, for LocalSizeId) operands. */
  readonly executionModes: Map<number, Map<number, readonly number[]>>;
  /**
   * OpFunctionParameter id → every FuncParamAttr it is decorated with (a parameter has several: NoAlias, NoWrite,
   * ByVal).
   */
  readonly funcParamAttrs: Map<number, number[]>;
  /** function id → its OpFunctionParameter ids and types, in order. */
  readonly functionParams: Map<number, { readonly id: number; readonly type: number }[]>;
  readonly capabilities: number[];
  readonly extensions: string[];
  /** OpString texts (llvm-spirv's `kernel_arg_type.<kernel>.<types>` among them). */
  readonly strings: string[];
  /**
   * clspv's NonSemantic.ClspvReflection: the descriptor bindings (`set/binding`) that hold an
   * argument's POD bytes, which the binary's types alone show as any storage or uniform buffer.
   */
  readonly clspvPods: Map<string, 'pod' | 'pod_ubo'>;
  /** Every `kernel/set/binding` clspv's reflection gives an argument (bound whether or not the body uses it). */
  readonly clspvBindings: Set<string>;
  /** clspv's PropertyRequiredWorkgroupSize, by kernel name (the module's work-group size is then spec constants). */
  readonly clspvReqd: Map<string, [number, number, number]>;
  /** function id → the module-scope variables its instructions name, and the functions it calls. */
  readonly uses: Map<number, { readonly variables: Set<number>; readonly calls: Set<number> }>;
}

/** A nul-terminated literal string starting at word `at` and ending before `end`. */
function literalString(
  words: Uint32Array,
  at: number,
  end: number,
  byteOffset: number,
): { text: string; next: number } {
  const bytes: number[] = [];
  for (let i = at; i < end; i++) {
    const w = words[i];
    for (let k = 0; k < 4; k++) {
      const b = (w >>> (8 * k)) & 0xff;
      if (b === 0) return { text: new TextDecoder().decode(Uint8Array.from(bytes)), next: i + 1 };
      bytes.push(b);
    }
  }
  throw new Malformed(byteOffset, 'a literal string runs past the end of its instruction');
}

const setIn = <K, V>(m: Map<K, V>, k: K, make: () => V): V => {
  let v = m.get(k);
  if (v === undefined) m.set(k, (v = make()));
  return v;
};

/** The words of a SPIR-V binary, either byte order (the magic number tells which). */
function wordsOf(bytes: Uint8Array): Uint32Array {
  if (bytes.length < 20)
    throw new Malformed(bytes.length, `a SPIR-V module starts with a 20-byte header; this has ${bytes.length} bytes`);
  if (bytes.length % 4 !== 0)
    throw new Malformed(
      bytes.length - (bytes.length % 4),
      `a SPIR-V module is whole 32-bit words; ${bytes.length} bytes leave ${bytes.length % 4} over`,
    );
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const little = view.getUint32(0, true) === MAGIC;
  if (!little && view.getUint32(0, false) !== MAGIC)
    throw new Malformed(
      0,
      `not SPIR-V: the magic number is 0x${view.getUint32(0, true).toString(16).padStart(8, '0')}, not 0x07230203`,
    );
  const words = new Uint32Array(bytes.length / 4);
  for (let i = 0; i < words.length; i++) words[i] = view.getUint32(4 * i, little);
  return words;
}

/** Reads a module; throws `Malformed` (only) on a broken one. */
export function parseSpirv(bytes: Uint8Array): SpvModule {
  const words = wordsOf(bytes);
  const m: SpvModule = {
    version: words[1],
    addressing: -1,
    offsets: new Map(),
    names: new Map(),
    memberNames: new Map(),
    decorations: new Map(),
    funcParamAttrs: new Map(),
    memberDecorations: new Map(),
    types: new Map(),
    constants: new Map(),
    specConstants: [],
    specComposites: new Set(),
    variables: new Map(),
    entryPoints: [],
    executionModes: new Map(),
    functionParams: new Map(),
    capabilities: [],
    extensions: [],
    strings: [],
    clspvPods: new Map(),
    clspvBindings: new Set(),
    clspvReqd: new Map(),
    uses: new Map(),
  };
  let reflection: number | undefined;
  const stringIds = new Map<number, string>();
  const reflectedKernels = new Map<number, string>();
  let fn: number | undefined;
  for (let at = 5; at < words.length;) {
    const byteOffset = at * 4;
    const count = words[at] >>> 16;
    const opcode = words[at] & 0xffff;
    if (count === 0) throw new Malformed(byteOffset, `instruction with opcode ${opcode} has a word count of 0`);
    const end = at + count;
    if (end > words.length)
      throw new Malformed(
        byteOffset,
        `instruction with opcode ${opcode} has ${count} words, past the end of the module (${words.length - at} ` +
          `words left)`,
      );
    /** Operand `i` (0 is the first after the opcode word), checked to lie inside the instruction. */
    const w = (i: number): number => {
      if (at + 1 + i >= end)
        throw new Malformed(
          byteOffset,
          `instruction with opcode ${opcode} has ${count} words; operand ${i + 1} is missing`,
        );
      return words[at + 1 + i];
    };
    const rest = (i: number): number[] => Array.from(words.subarray(Math.min(at + 1 + i, end), end));
    const str = (i: number) => literalString(words, at + 1 + i, end, byteOffset);
    switch (opcode) {
      case Op.MemoryModel:
        m.addressing = w(0);
        break;
      case Op.Capability:
        m.capabilities.push(w(0));
        break;
      case Op.Extension:
        m.extensions.push(str(0).text);
        break;
      case Op.String:
        m.strings.push(str(1).text);
        stringIds.set(w(0), str(1).text);
        break;
      case Op.Name:
        m.names.set(w(0), str(1).text);
        break;
      case Op.MemberName:
        setIn(m.memberNames, w(0), () => new Map()).set(w(1), str(2).text);
        break;
      case Op.EntryPoint: {
        const name = str(2);
        m.entryPoints.push({ model: w(0), fn: w(1), name: name.text, interface: rest(name.next - at - 1), byteOffset });
        break;
      }
      case Op.ExecutionMode:
      case MoreOp.ExecutionModeId:
        setIn(m.executionModes, w(0), () => new Map()).set(w(1), rest(2));
        break;
      case Op.Decorate:
      case MoreOp.DecorateId:
        setIn(m.decorations, w(0), () => new Map()).set(w(1), rest(2));
        if (w(1) === MoreDecoration.FuncParamAttr) setIn(m.funcParamAttrs, w(0), () => []).push(w(2));
        break;
      case Op.MemberDecorate:
        setIn(
          setIn(m.memberDecorations, w(0), () => new Map()),
          w(1),
          () => new Map(),
        ).set(w(2), rest(3));
        break;
      case Op.TypeVoid:
        m.types.set(w(0), { kind: 'void' });
        break;
      case Op.TypeBool:
        m.types.set(w(0), { kind: 'bool' });
        break;
      case Op.TypeInt:
        m.types.set(w(0), { kind: 'int', width: w(1), signed: w(2) === 1 });
        break;
      case Op.TypeFloat:
        m.types.set(w(0), { kind: 'float', width: w(1) });
        break;
      case Op.TypeVector:
        m.types.set(w(0), { kind: 'vector', component: w(1), count: w(2) });
        break;
      case MoreOp.TypeMatrix:
        m.types.set(w(0), { kind: 'matrix', column: w(1), count: w(2) });
        break;
      case Op.TypeArray:
        m.types.set(w(0), { kind: 'array', element: w(1), length: w(2) });
        break;
      case Op.TypeRuntimeArray:
        m.types.set(w(0), { kind: 'runtime-array', element: w(1) });
        break;
      case Op.TypeStruct:
        m.types.set(w(0), { kind: 'struct', members: rest(1) });
        break;
      case Op.TypePointer:
        m.types.set(w(0), { kind: 'pointer', storageClass: w(1), pointee: w(2) });
        break;
      case Op.TypeFunction:
        m.types.set(w(0), { kind: 'function', result: w(1), params: rest(2) });
        break;
      case MoreOp.TypeImage: {
        const access = at + 9 < end ? words[at + 9] : undefined;
        m.types.set(w(0), {
          kind: 'image',
          dim: w(2),
          depth: w(3),
          arrayed: w(4),
          ms: w(5),
          sampled: w(6),
          format: w(7),
          ...(access !== undefined ? { access } : {}),
        });
        break;
      }
      case MoreOp.TypeSampledImage:
        m.types.set(w(0), { kind: 'sampled-image', image: w(1) });
        break;
      case MoreOp.TypeSampler:
        m.types.set(w(0), { kind: 'sampler' });
        break;
      case MoreOp.TypeEvent:
        m.types.set(w(0), { kind: 'event' });
        break;
      case MoreOp.TypeDeviceEvent:
        m.types.set(w(0), { kind: 'device-event' });
        break;
      case MoreOp.TypeReserveId:
        m.types.set(w(0), { kind: 'reserve-id' });
        break;
      case MoreOp.TypeQueue:
        m.types.set(w(0), { kind: 'queue' });
        break;
      case MoreOp.TypePipe:
        m.types.set(w(0), { kind: 'pipe' });
        break;
      case MoreOp.TypeOpaque:
        m.types.set(w(0), { kind: 'opaque' });
        break;
      case Op.Constant:
        m.constants.set(w(1), w(2));
        break;
      case Op.SpecConstant:
        m.constants.set(w(1), w(2));
        m.specConstants.push({ id: w(1), type: w(0) });
        break;
      case MoreOp.SpecConstantTrue:
        m.constants.set(w(1), 1);
        m.specConstants.push({ id: w(1), type: w(0) });
        break;
      case MoreOp.SpecConstantFalse:
        m.constants.set(w(1), 0);
        m.specConstants.push({ id: w(1), type: w(0) });
        break;
      case Op.ExtInstImport:
        if (str(1).text.startsWith('NonSemantic.ClspvReflection.')) reflection = w(0);
        break;
      case Op.ExtInst: {
        // ArgumentPod{StorageBuffer,Uniform}: kernel, ordinal, set, binding, offset, size (constant ids).
        // Kernel: function, name (a string id); keyed by the kernel's name, as bindings repeat across kernels.
        const inst = w(3);
        if (w(2) !== reflection) break;
        if (inst === Reflection.Kernel) reflectedKernels.set(w(1), stringIds.get(w(5)) ?? '');
        if (inst === Reflection.PropertyRequiredWorkgroupSize) {
          const [x, y, z] = [5, 6, 7].map((i) => m.constants.get(w(i)));
          const kernel = reflectedKernels.get(w(4));
          if (kernel !== undefined && x !== undefined && y !== undefined && z !== undefined)
            m.clspvReqd.set(kernel, [x, y, z]);
          break;
        }
        if (!DESCRIPTOR_ARGUMENTS.has(inst)) break;
        const set = m.constants.get(w(6));
        const binding = m.constants.get(w(7));
        const kernel = reflectedKernels.get(w(4));
        if (set === undefined || binding === undefined || kernel === undefined) break;
        m.clspvBindings.add(`${kernel}/${set}/${binding}`);
        if (inst === Reflection.ArgumentPodStorageBuffer || inst === Reflection.ArgumentPodUniform)
          m.clspvPods.set(`${kernel}/${set}/${binding}`, inst === Reflection.ArgumentPodUniform ? 'pod_ubo' : 'pod');
        break;
      }
      case Op.SpecConstantComposite:
        m.specComposites.add(w(1));
        break;
      case Op.Variable:
        if (fn === undefined) m.variables.set(w(1), { type: w(0), storageClass: w(2) });
        break;
      case Op.Function:
        fn = w(1);
        m.functionParams.set(fn, []);
        m.uses.set(fn, { variables: new Set(), calls: new Set() });
        break;
      case MoreOp.FunctionParameter:
        if (fn !== undefined) m.functionParams.get(fn)!.push({ id: w(1), type: w(0) });
        break;
      case Op.FunctionEnd:
        fn = undefined;
        break;
      default:
        break;
    }
    if (fn !== undefined && opcode !== Op.Function) {
      // Which resources a function uses (SPIR-V before 1.4 lists only inputs and outputs on the entry
      // point): every operand naming a module-scope variable, and OpFunctionCall's callee.
      const u = m.uses.get(fn)!;
      for (let i = at + 1; i < end; i++) if (m.variables.has(words[i])) u.variables.add(words[i]);
      if (opcode === FUNCTION_CALL && count > 3) u.calls.add(words[at + 3]);
    }
    // Types and variables have their result id first, constants second.
    if (opcode >= Op.TypeVoid && opcode <= MoreOp.TypePipe && count > 1) m.offsets.set(words[at + 1], byteOffset);
    else if (opcode === Op.Variable || (opcode >= Op.ConstantTrue && opcode <= Op.SpecConstantComposite))
      m.offsets.set(words[at + 2], byteOffset);
    at = end;
  }
  return m;
}

/**
 * The module-scope variables a function uses, through the functions it calls (each visited once: no hang on recursion).
 */
export function variablesUsedBy(m: SpvModule, fn: number): Set<number> {
  const out = new Set<number>();
  const seen = new Set<number>();
  const todo = [fn];
  while (todo.length > 0) {
    const f = todo.pop()!;
    if (seen.has(f)) continue;
    seen.add(f);
    const u = m.uses.get(f);
    if (!u) continue;
    for (const v of u.variables) out.add(v);
    for (const c of u.calls) todo.push(c);
  }
  return out;
}

/** A decoration's first operand on an id, if it has the decoration. */
export function decoration(m: SpvModule, id: number, d: number): number | undefined {
  return m.decorations.get(id)?.get(d)?.[0];
}
export const hasDecoration = (m: SpvModule, id: number, d: number): boolean => m.decorations.get(id)?.has(d) ?? false;
export function memberDecoration(m: SpvModule, id: number, member: number, d: number): number | undefined {
  return m.memberDecorations.get(id)?.get(member)?.get(d)?.[0];
}

export { Decoration, ExecutionMode, StorageClass };
