import { CLSPV_REFLECTION_IMPORT, Reflection } from './clspv-reflection.js';
import { formatFloat } from './float-text.js';
import { AddressingModel, BuiltIn, Capability, Decoration, ExecutionMode, ExecutionModel, GLSL_STD_450, Glsl, MemoryModel, Op, StorageClass, invert } from './spec.js';

/**
 * Operand kinds, per opcode: T result type, R result id, I id, L literal number, S string,
 * C a literal of the result type's width (OpConstant), and the enumerations by name. A trailing
 * `*` repeats the last kind to the end of the instruction; `?` marks an optional tail.
 */
type Kind = 'T' | 'R' | 'I' | 'L' | 'S' | 'C' | 'Cap' | 'SC' | 'Dec' | 'AM' | 'MM' | 'EM' | 'Mode' | 'FnCtl' | 'Ctl' | 'Mem' | 'Ext';
const LAYOUT: Partial<Record<number, readonly (Kind | '*')[]>> = {
  [Op.Name]: ['I', 'S'], [Op.MemberName]: ['I', 'L', 'S'], [Op.String]: ['R', 'S'], [Op.Extension]: ['S'], [Op.ExtInstImport]: ['R', 'S'],
  [Op.ExtInst]: ['T', 'R', 'I', 'Ext', 'I', '*'], [Op.MemoryModel]: ['AM', 'MM'], [Op.EntryPoint]: ['EM', 'I', 'S', 'I', '*'],
  [Op.ExecutionMode]: ['I', 'Mode', 'L', '*'], [Op.Capability]: ['Cap'],
  [Op.TypeVoid]: ['R'], [Op.TypeBool]: ['R'], [Op.TypeInt]: ['R', 'L', 'L'], [Op.TypeFloat]: ['R', 'L'], [Op.TypeVector]: ['R', 'I', 'L'],
  [Op.TypeArray]: ['R', 'I', 'I'], [Op.TypeRuntimeArray]: ['R', 'I'], [Op.TypeStruct]: ['R', 'I', '*'], [Op.TypePointer]: ['R', 'SC', 'I'],
  [Op.TypeFunction]: ['R', 'I', '*'], [Op.ConstantTrue]: ['T', 'R'], [Op.ConstantFalse]: ['T', 'R'], [Op.Constant]: ['T', 'R', 'C'],
  [Op.SpecConstant]: ['T', 'R', 'C'], [Op.SpecConstantComposite]: ['T', 'R', 'I', '*'],
  [Op.Function]: ['T', 'R', 'FnCtl', 'I'], [Op.FunctionEnd]: [], [Op.Variable]: ['T', 'R', 'SC'],
  [Op.Load]: ['T', 'R', 'I', 'Mem'], [Op.Store]: ['I', 'I', 'Mem'], [Op.AccessChain]: ['T', 'R', 'I', 'I', '*'],
  [Op.Decorate]: ['I', 'Dec'], [Op.MemberDecorate]: ['I', 'L', 'Dec'], [Op.CompositeExtract]: ['T', 'R', 'I', 'L', '*'],
  [Op.LoopMerge]: ['I', 'I', 'Ctl'], [Op.SelectionMerge]: ['I', 'Ctl'], [Op.Label]: ['R'], [Op.Branch]: ['I'], [Op.BranchConditional]: ['I', 'I', 'I'],
  [Op.Return]: [],
};
/** Every other opcode kernarg emits: a result type, a result id, then ids. */
const VALUE_OP: readonly Kind[] = ['T', 'R', 'I', 'I', 'I', 'I', 'I', 'I'];
const NO_RESULT: ReadonlySet<number> = new Set([Op.ControlBarrier]);

const OP_NAME = invert(Op);
const NAMES: Record<string, Map<number, string>> = {
  Cap: invert(Capability), SC: invert(StorageClass), Dec: invert(Decoration), AM: invert(AddressingModel), MM: invert(MemoryModel),
  EM: invert(ExecutionModel), Mode: invert(ExecutionMode), BuiltIn: invert(BuiltIn),
};
const REFLECTION_NAME = invert(Reflection);
const GLSL_NAME = invert(Glsl);

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

/**
 * A module as text, the way `spirv-dis --raw-id` prints it: the header comments, then one
 * instruction a line with result ids right-aligned before `=`, enumerants by name, constants
 * by the width and kind of their type. Knows the instructions kernarg emits.
 */
export function disassemble(words: Uint32Array): string {
  const out = [`; SPIR-V`, `; Version: ${(words[1] >> 16) & 0xff}.${(words[1] >> 8) & 0xff}`, `; Generator: Khronos; ${words[2] & 0xffff}`, `; Bound: ${words[3]}`, `; Schema: ${words[4]}`];
  const numeric = new Map<number, { float: boolean; width: number }>();
  const imports = new Map<number, string>();
  for (let at = 5; at < words.length; ) {
    const count = words[at] >>> 16;
    const opcode = words[at] & 0xffff;
    const end = at + count;
    const layout = LAYOUT[opcode] ?? (NO_RESULT.has(opcode) ? ['I', 'I', 'I'] : VALUE_OP);
    const parts: string[] = [];
    let result: number | undefined;
    let resultType: number | undefined;
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
          parts.push(`%${resultType}`);
          break;
        case 'I':
          parts.push(`%${words[i++]}`);
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
          parts.push(t.float ? formatFloat(bits, t.width) : bits.toString());
          break;
        }
        case 'Dec': {
          const d = words[i++];
          parts.push(NAMES.Dec.get(d) ?? String(d));
          if (d === Decoration.BuiltIn) parts.push(NAMES.BuiltIn.get(words[i]) ?? String(words[i])), i++;
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
        case 'Ctl':
          parts.push(words[i] === 0 ? 'None' : String(words[i]));
          i++;
          break;
        case 'Ext': {
          const set = imports.get(Number(parts[parts.length - 1].slice(1)));
          const n = words[i++];
          const table = set === CLSPV_REFLECTION_IMPORT ? REFLECTION_NAME : set === GLSL_STD_450 ? GLSL_NAME : undefined;
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
    const text = [OP_NAME.get(opcode) ? `Op${OP_NAME.get(opcode)}` : `Op${opcode}`, ...parts].join(' ');
    out.push(result === undefined ? `${' '.repeat(15)}${text}` : `${`%${result}`.padStart(12)} = ${text}`);
    at = end;
  }
  return out.join('\n') + '\n';
}
