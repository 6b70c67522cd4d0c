import { CLSPV_REFLECTION_IMPORT, Reflection } from './clspv-reflection.js';
import { formatFloat, formatHexFloat } from './float-text.js';
import {
  AddressingModel,
  BuiltIn,
  Capability,
  Decoration,
  ExecutionMode,
  ExecutionModel,
  GLSL_STD_450,
  Glsl,
  GroupOperation,
  MemoryModel,
  OPENCL_STD,
  Op,
  StorageClass,
  invert,
} from './spec.js';
import { NumberOp, OpenclStdInst } from './number-ops.js';

/**
 * Operand kinds, per opcode: T result type, R result id, I id, L literal number, S string,
 * C a literal of the result type's width (OpConstant), and the enumerations by name. A trailing
 * `*` repeats the last kind to the end of the instruction; `?` marks an optional tail.
 */
type Kind =
  | 'T'
  | 'R'
  | 'I'
  | 'L'
  | 'S'
  | 'C'
  | 'Cap'
  | 'SC'
  | 'Dec'
  | 'AM'
  | 'MM'
  | 'EM'
  | 'Mode'
  | 'FnCtl'
  | 'LoopCtl'
  | 'SelCtl'
  | 'Mem'
  | 'Ext'
  | 'GroupOp';
const LAYOUT: Partial<Record<number, readonly (Kind | '*')[]>> = {
  [Op.Name]: ['I', 'S'],
  [Op.MemberName]: ['I', 'L', 'S'],
  [Op.String]: ['R', 'S'],
  [Op.Extension]: ['S'],
  [Op.ExtInstImport]: ['R', 'S'],
  [Op.ExtInst]: ['T', 'R', 'I', 'Ext', 'I', '*'],
  [Op.MemoryModel]: ['AM', 'MM'],
  [Op.EntryPoint]: ['EM', 'I', 'S', 'I', '*'],
  [Op.ExecutionMode]: ['I', 'Mode', 'L', '*'],
  [Op.Capability]: ['Cap'],
  [Op.TypeVoid]: ['R'],
  [Op.TypeBool]: ['R'],
  [Op.TypeInt]: ['R', 'L', 'L'],
  [Op.TypeFloat]: ['R', 'L'],
  [Op.TypeVector]: ['R', 'I', 'L'],
  [Op.TypeArray]: ['R', 'I', 'I'],
  [Op.TypeRuntimeArray]: ['R', 'I'],
  [Op.TypeStruct]: ['R', 'I', '*'],
  [Op.TypePointer]: ['R', 'SC', 'I'],
  [Op.TypeFunction]: ['R', 'I', '*'],
  [Op.ConstantTrue]: ['T', 'R'],
  [Op.ConstantFalse]: ['T', 'R'],
  [Op.Constant]: ['T', 'R', 'C'],
  [Op.SpecConstant]: ['T', 'R', 'C'],
  [Op.SpecConstantComposite]: ['T', 'R', 'I', '*'],
  [Op.Function]: ['T', 'R', 'FnCtl', 'I'],
  [Op.FunctionEnd]: [],
  [Op.Variable]: ['T', 'R', 'SC'],
  [Op.Load]: ['T', 'R', 'I', 'Mem'],
  [Op.Store]: ['I', 'I', 'Mem'],
  [Op.AccessChain]: ['T', 'R', 'I', 'I', '*'],
  [Op.Decorate]: ['I', 'Dec'],
  [Op.MemberDecorate]: ['I', 'L', 'Dec'],
  [Op.CompositeExtract]: ['T', 'R', 'I', 'L', '*'],
  [Op.LoopMerge]: ['I', 'I', 'LoopCtl'],
  [Op.SelectionMerge]: ['I', 'SelCtl'],
  [Op.Label]: ['R'],
  [Op.Branch]: ['I'],
  [Op.BranchConditional]: ['I', 'I', 'I'],
  [Op.Return]: [],
  [Op.AtomicStore]: ['I', 'I', 'I', 'I'],
  [NumberOp.Undef]: ['T', 'R'],
  [NumberOp.ConstantComposite]: ['T', 'R', 'I', '*'],
  [NumberOp.ConstantNull]: ['T', 'R'],
  [NumberOp.VectorShuffle]: ['T', 'R', 'I', 'I', 'L', '*'],
  [NumberOp.CompositeInsert]: ['T', 'R', 'I', 'I', 'L', '*'],
  // The subgroup reductions and scans: result type, result, scope, the GroupOperation by name, the value.
  ...Object.fromEntries(
    (
      [
        'GroupIAdd',
        'GroupFAdd',
        'GroupFMin',
        'GroupSMin',
        'GroupFMax',
        'GroupSMax',
        'GroupNonUniformIAdd',
        'GroupNonUniformFAdd',
        'GroupNonUniformSMin',
        'GroupNonUniformFMin',
        'GroupNonUniformSMax',
        'GroupNonUniformFMax',
      ] as const
    ).map((op) => [Op[op], ['T', 'R', 'I', 'GroupOp', 'I'] as const]),
  ),
  [NumberOp.CompositeConstruct]: ['T', 'R', 'I', '*'],
};
/** Every other opcode kernarg emits: a result type, a result id, then ids. */
const VALUE_OP: readonly Kind[] = ['T', 'R', 'I', 'I', 'I', 'I', 'I', 'I'];
const NO_RESULT: ReadonlySet<number> = new Set([Op.ControlBarrier]);

const OP_NAME = invert({ ...Op, ...NumberOp });
const NAMES: Record<string, Map<number, string>> = {
  Cap: invert(Capability),
  SC: invert(StorageClass),
  Dec: invert(Decoration),
  AM: invert(AddressingModel),
  MM: invert(MemoryModel),
  EM: invert(ExecutionModel),
  Mode: invert(ExecutionMode),
  BuiltIn: invert(BuiltIn),
  GroupOp: invert(GroupOperation),
};
const REFLECTION_NAME = invert(Reflection);
const GLSL_NAME = invert(Glsl);
const OPENCL_STD_NAME = invert(OpenclStdInst);

function readString(words: Uint32Array, at: number, end: number): { text: string; next: number } {
  const bytes: number[] = [];
  let i = at;
  for (; i < end; i++) {
    const w = words[i];
    let done = false;
    for (let k = 0; k < 4; k++) {
      const b = (w >>> (8 * k)) & 0xff;
      if (b === 0) {
        done = true;
        break;
      }
      bytes.push(b);
    }
    if (done) break;
  }
  return { text: new TextDecoder().decode(Uint8Array.from(bytes)), next: i + 1 };
}

const quote = (s: string) => `"${s.replace(/["\\]/g, (c) => `\\${c}`)}"`;

interface Decoded {
  readonly opcode: number;
  readonly words: Uint32Array;
  readonly result?: number;
  /** Operands: text, or an id to print by name. */
  readonly parts: (string | { id: number })[];
  /** OpConstant: the value as printed. */
  readonly value?: string;
}

function decode(words: Uint32Array, floats: FloatSpelling = 'spirv-dis'): Decoded[] {
  const numeric = new Map<number, { float: boolean; width: number }>();
  const imports = new Map<number, string>();
  const list: Decoded[] = [];
  for (let at = 5; at < words.length;) {
    const count = words[at] >>> 16;
    const opcode = words[at] & 0xffff;
    const end = at + count;
    const layout = LAYOUT[opcode] ?? (NO_RESULT.has(opcode) ? ['I', 'I', 'I'] : VALUE_OP);
    const parts: (string | { id: number })[] = [];
    let result: number | undefined;
    let resultType: number | undefined;
    let value: string | undefined;
    let lastId = 0;
    let i = at + 1;
    let k = 0;
    let last: Kind = 'I';
    while (i < end) {
      let kind = layout[k] as Kind | '*' | undefined;
      if (kind === '*' || kind === undefined) kind = last;
      else k++;
      last = kind;
      switch (kind) {
        case 'R':
          result = words[i++];
          break;
        case 'T':
          resultType = words[i++];
          parts.push({ id: resultType });
          break;
        case 'I':
          lastId = words[i++];
          parts.push({ id: lastId });
          break;
        case 'L':
          parts.push(String(words[i++]));
          break;
        case 'S': {
          const s = readString(words, i, end);
          parts.push(quote(s.text));
          if (opcode === Op.ExtInstImport && result !== undefined) imports.set(result, s.text);
          i = s.next;
          break;
        }
        case 'C': {
          const t = numeric.get(resultType!) ?? { float: false, width: 32 };
          const lo = BigInt(words[i++]);
          const bits = t.width === 64 ? lo | (BigInt(words[i++]) << 32n) : lo;
          value = t.float ? (floats === 'hex' ? formatHexFloat : formatFloat)(bits, t.width) : bits.toString();
          parts.push(value);
          break;
        }
        case 'Dec': {
          const d = words[i++];
          parts.push(NAMES.Dec.get(d) ?? String(d));
          if (d === Decoration.BuiltIn) (parts.push(NAMES.BuiltIn.get(words[i]) ?? String(words[i])), i++);
          last = 'L';
          k = layout.length;
          break;
        }
        case 'Mem': {
          const m = words[i++];
          parts.push(m === 0 ? 'None' : m === 2 ? 'Aligned' : String(m));
          last = 'L';
          k = layout.length;
          break;
        }
        case 'FnCtl':
        case 'LoopCtl':
        case 'SelCtl':
          parts.push(controlMask(CONTROL_BITS[kind], words[i]));
          i++;
          break;
        case 'Ext': {
          const set = imports.get(lastId);
          const n = words[i++];
          const table =
            set === CLSPV_REFLECTION_IMPORT
              ? REFLECTION_NAME
              : set === GLSL_STD_450
                ? GLSL_NAME
                : set === OPENCL_STD
                  ? OPENCL_STD_NAME
                  : undefined;
          parts.push(table?.get(n) ?? String(n));
          break;
        }
        default:
          parts.push(NAMES[kind].get(words[i]) ?? String(words[i]));
          i++;
      }
    }
    if (opcode === Op.TypeInt) numeric.set(result!, { float: false, width: words[at + 2] });
    if (opcode === Op.TypeFloat) numeric.set(result!, { float: true, width: words[at + 2] });
    list.push({
      opcode,
      words: words.subarray(at, end),
      ...(result !== undefined ? { result } : {}),
      parts,
      ...(value !== undefined ? { value } : {}),
    });
    at = end;
  }
  return list;
}

/**
 * A module as text, the way spirv-dis prints it: the header comments, then one instruction a
 * line with result ids right-aligned before `=`, enumerants by name, constants by the width and
 * kind of their type. Ids by friendly names (spirv-dis's default: OpName, built-ins, type
 * and constant spellings, made unique), or as numbers with `rawIds` (`spirv-dis --raw-id`).
 * Knows the instructions kernarg emits.
 */
/**
 * The named bits of the control masks, as spirv-dis spells them (SPIR-V spec 3.24, 3.22, 3.23): a
 * mask prints as its names joined by '|', None for 0, and as its number where a bit has no name here.
 */
const CONTROL_BITS: Readonly<Record<'FnCtl' | 'LoopCtl' | 'SelCtl', readonly string[]>> = {
  FnCtl: ['Inline', 'DontInline', 'Pure', 'Const'],
  LoopCtl: ['Unroll', 'DontUnroll'],
  SelCtl: ['Flatten', 'DontFlatten'],
};

function controlMask(bits: readonly string[], mask: number): string {
  if (mask === 0) return 'None';
  if (mask >>> bits.length !== 0) return String(mask);
  return bits.filter((_, b) => mask & (1 << b)).join('|');
}

/** How float constants print: as spirv-dis prints them, or as C's `%a` (tinytc-oc -S). */
export type FloatSpelling = 'spirv-dis' | 'hex';

export function disassemble(words: Uint32Array, options: { rawIds?: boolean; floats?: FloatSpelling } = {}): string {
  const out = [
    `; SPIR-V`,
    `; Version: ${(words[1] >> 16) & 0xff}.${(words[1] >> 8) & 0xff}`,
    `; Generator: Khronos; ${words[2] & 0xffff}`,
    `; Bound: ${words[3]}`,
    `; Schema: ${words[4]}`,
  ];
  const list = decode(words, options.floats);
  const names = options.rawIds ? undefined : friendlyNames(list);
  const name = (id: number) => `%${names?.get(id) ?? id}`;
  for (const d of list) {
    const text = [
      OP_NAME.get(d.opcode) ? `Op${OP_NAME.get(d.opcode)}` : `Op${d.opcode}`,
      ...d.parts.map((p) => (typeof p === 'string' ? p : name(p.id))),
    ].join(' ');
    out.push(d.result === undefined ? `${' '.repeat(15)}${text}` : `${name(d.result).padStart(12)} = ${text}`);
  }
  return out.join('\n') + '\n';
}

const INT_ROOT: Record<number, string> = { 8: 'char', 16: 'short', 32: 'int', 64: 'long' };
const FLOAT_NAME: Record<number, string> = { 16: 'half', 32: 'float', 64: 'double' };
/** The friendly names spirv-dis gives built-in variables. */
const BUILTIN_NAME: Record<string, string> = {
  NumWorkgroups: 'gl_NumWorkGroups',
  WorkgroupSize: 'gl_WorkGroupSize',
  WorkgroupId: 'gl_WorkGroupID',
  LocalInvocationId: 'gl_LocalInvocationID',
};

/** spirv-dis's friendly names, assigned in one pass over the module in instruction order. */
function friendlyNames(list: readonly Decoded[]): Map<number, string> {
  const names = new Map<number, string>();
  const used = new Set<string>();
  const nameOf = (id: number) => names.get(id) ?? String(id);
  const save = (id: number, suggested: string) => {
    if (names.has(id)) return;
    const base = suggested === '' ? '_' : suggested.replace(/[^A-Za-z0-9_]/g, '_');
    let n = base;
    for (let k = 0; used.has(n); k++) n = `${base}_${k}`;
    used.add(n);
    names.set(id, n);
  };
  for (const d of list) {
    const w = d.words;
    switch (d.opcode) {
      case Op.Name:
        save(w[1], readString(w, 2, w.length).text);
        break;
      case Op.Decorate:
        if (w[2] === Decoration.BuiltIn) {
          const b = BUILTIN_NAME[NAMES.BuiltIn.get(w[3]) ?? ''];
          if (b) save(w[1], b);
        }
        break;
      case Op.TypeVoid:
        save(d.result!, 'void');
        break;
      case Op.TypeBool:
        save(d.result!, 'bool');
        break;
      case Op.TypeInt:
        save(
          d.result!,
          INT_ROOT[w[2]] ? `${w[3] === 0 ? 'u' : ''}${INT_ROOT[w[2]]}` : `${w[3] === 0 ? 'u' : 'i'}${w[2]}`,
        );
        break;
      case Op.TypeFloat:
        save(d.result!, FLOAT_NAME[w[2]] ?? `fp${w[2]}`);
        break;
      case Op.TypeVector:
        save(d.result!, `v${w[3]}${nameOf(w[2])}`);
        break;
      case Op.TypeArray:
        save(d.result!, `_arr_${nameOf(w[2])}_${nameOf(w[3])}`);
        break;
      case Op.TypeRuntimeArray:
        save(d.result!, `_runtimearr_${nameOf(w[2])}`);
        break;
      case Op.TypePointer:
        save(d.result!, `_ptr_${NAMES.SC.get(w[2]) ?? `StorageClass${w[2]}`}_${nameOf(w[3])}`);
        break;
      case Op.TypeStruct:
        save(d.result!, `_struct_${d.result}`);
        break;
      case Op.ConstantTrue:
        save(d.result!, 'true');
        break;
      case Op.ConstantFalse:
        save(d.result!, 'false');
        break;
      case Op.Constant:
        save(d.result!, `${nameOf(w[1])}_${d.value!.replace(/-/g, 'n')}`);
        break;
      default:
        if (d.result !== undefined && !names.has(d.result)) save(d.result, String(d.result));
    }
  }
  return names;
}
