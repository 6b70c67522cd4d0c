// PTX text → a cuda plan: each `.entry` (nvcl's bare `.entry`, or the CUDA driver interface's
// `.visible .entry`) with its `.param` list, laid out in the packed parameter buffer by the same
// rule the cuda target predicts with (paramOffset: alignments above 16 count from the buffer's
// place in constant bank 0, which depends on the GPU the driver JIT-compiles for: PTX names no
// such GPU — its `.target` is the oldest it may run on — so the caller names it, sm_90 by
// default). What the PTX does not say (the OpenCL C types, the source names) is
// left out: slots are named as the PTX names its parameters.
import type { SlotFields, SlotLiteral } from '../abi/slot-shape.js';
import { cudaSlot } from '../targets/cuda/slot.js';
import { Messages } from '../diagnostics/messages.js';
import { type Diagnostic, DiagnosticBag } from '../diagnostics/diagnostic.js';
import { SourceFile, span } from '../diagnostics/source.js';
import type { ValueLayout } from '../layout/value-layout.js';
import type { SlotRole } from '../abi/plan.js';
import { DEFAULT_CUDA_SM, paramOffset } from '../targets/cuda/param-base.js';
import { placeCudaKernel } from '../targets/cuda/placement.js';
import type {
  CudaArch,
  CudaKernelPlan,
  CudaPlan,
  CudaSlot,
  CudaSm,
  PtxParamType,
  PtxPointerSpace,
} from '../targets/cuda/plan.js';

interface Token {
  readonly text: string;
  readonly start: number;
}

/**
 * Splits PTX into tokens (directives, identifiers, numbers, punctuation), dropping comments; reports an unclosed block
 * comment.
 */
function tokenize(text: string, file: SourceFile, diags: DiagnosticBag): Token[] {
  const out: Token[] = [];
  const word = /[A-Za-z0-9_$.%]/;
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      if (end < 0) {
        diags.report(Messages.ptxUnterminatedComment, span(file, i, i + 2));
        return out;
      }
      i = end + 2;
    } else if (c === '"') {
      // Strings appear only in `.file` directives; taken whole so their contents are not tokens.
      let j = i + 1;
      while (j < text.length && text[j] !== '"' && text[j] !== '\n') j++;
      out.push({ text: text.slice(i, j + 1), start: i });
      i = j + 1;
    } else if (word.test(c)) {
      let j = i + 1;
      // A directive or type (`.u64`) starts a token of its own, so `.param.u64` reads as two.
      while (j < text.length && word.test(text[j]) && text[j] !== '.') j++;
      out.push({ text: text.slice(i, j), start: i });
      i = j;
    } else if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i++;
    } else {
      out.push({ text: c, start: i });
      i++;
    }
  }
  return out;
}

/** PTX's fundamental types a parameter may have, as the plan records them (LLVM prints every integer as `.uN`). */
const SCALAR_TYPES = {
  u8: 'u8',
  s8: 'u8',
  b8: 'u8',
  u16: 'u16',
  s16: 'u16',
  b16: 'u16',
  u32: 'u32',
  s32: 'u32',
  b32: 'u32',
  u64: 'u64',
  s64: 'u64',
  b64: 'u64',
  f32: 'f32',
  f64: 'f64',
} as const satisfies Record<string, Exclude<PtxParamType, 'b8'>>;
type ScalarSpelling = keyof typeof SCALAR_TYPES;

const SIZE = { u8: 1, u16: 2, u32: 4, u64: 8, f32: 4, f64: 8 } as const satisfies Record<
  Exclude<PtxParamType, 'b8'>,
  number
>;

/** The byte layout of a scalar parameter, named as OpenCL C's unsigned types (PTX keeps no sign). */
const SCALAR_LAYOUT = {
  u8: { kind: 'scalar', scalar: 'uchar', encoding: 'uint', size: 1, align: 1 },
  u16: { kind: 'scalar', scalar: 'ushort', encoding: 'uint', size: 2, align: 2 },
  u32: { kind: 'scalar', scalar: 'uint', encoding: 'uint', size: 4, align: 4 },
  u64: { kind: 'scalar', scalar: 'ulong', encoding: 'uint', size: 8, align: 8 },
  f32: { kind: 'scalar', scalar: 'float', encoding: 'float', size: 4, align: 4 },
  f64: { kind: 'scalar', scalar: 'double', encoding: 'float', size: 8, align: 8 },
} as const satisfies Record<Exclude<PtxParamType, 'b8'>, ValueLayout>;

const SPACES = { global: 'global', const: 'const', shared: 'shared' } as const satisfies Record<
  string,
  Exclude<PtxPointerSpace, 'generic'>
>;

/** The role a pointer parameter plays, by the space it points into (generic: queues, events, opaque values). */
const SPACE_ROLE = { global: 'data', const: 'data', shared: 'local', generic: 'value' } as const satisfies Record<
  PtxPointerSpace,
  SlotRole
>;

const isPow2 = (n: number) => Number.isInteger(n) && n > 0 && (n & (n - 1)) === 0;

class Cursor {
  i = 0;
  constructor(
    readonly toks: readonly Token[],
    readonly file: SourceFile,
    readonly diags: DiagnosticBag,
  ) {}
  peek(k = 0): string | undefined {
    return this.toks[this.i + k]?.text;
  }
  next(): Token | undefined {
    return this.toks[this.i++];
  }
  /** Where an error points: the current token, or the end of the text. */
  here(): { start: number; end: number } {
    const t = this.toks[this.i];
    return t
      ? { start: t.start, end: t.start + t.text.length }
      : { start: this.file.text.length, end: this.file.text.length };
  }
  expected(what: string): undefined {
    const { start, end } = this.here();
    const found = this.peek();
    this.diags.report(Messages.ptxExpected, span(this.file, start, end), [
      what,
      found === undefined ? 'the end of the file' : `'${found}'`,
    ]);
    return undefined;
  }
  number(what: string): number | undefined {
    const t = this.peek();
    if (t === undefined || !/^(?:0[xX][0-9a-fA-F]+|\d+)$/.test(t)) return this.expected(what);
    this.i++;
    return Number(t);
  }
}

/** One `.param`: the cursor stands after `.param`; returns the slot's declaration, or undefined (reported). */
function readParam(c: Cursor, index: number): Omit<SlotFields<CudaSlot>, 'offset'> | undefined {
  let align: number | undefined;
  let alignAt = c.here();
  if (c.peek() === '.align') {
    c.next();
    alignAt = c.here();
    align = c.number('an alignment');
    if (align === undefined) return undefined;
  }
  const typeTok = c.peek();
  if (typeTok === undefined || !typeTok.startsWith('.')) return c.expected('a parameter type');
  const typeAt = c.here();
  c.next();
  const spelling = typeTok.slice(1);
  let space: PtxPointerSpace | undefined;
  let pointeeAlign: number | undefined;
  if (c.peek() === '.ptr') {
    c.next();
    space = 'generic';
    const s = c.peek()?.slice(1);
    if (s !== undefined && Object.hasOwn(SPACES, s)) {
      space = SPACES[s as keyof typeof SPACES];
      c.next();
    }
    if (c.peek() === '.align') {
      c.next();
      alignAt = c.here();
      pointeeAlign = c.number('an alignment');
      if (pointeeAlign === undefined) return undefined;
    }
  }
  const nameTok = c.peek();
  if (nameTok === undefined || !/^[A-Za-z_$%][\w$]*$/.test(nameTok)) return c.expected('a parameter name');
  c.next();
  const name = nameTok;
  const base = { name, param: index, ptxName: name, index } as const;
  if (c.peek() === '[') {
    // A byte array: `.align A .b8 name[N]` (vectors, structs and unions by value).
    c.next();
    const sizeAt = c.here();
    const size = c.number('a byte count');
    if (size === undefined) return undefined;
    if (c.peek() !== ']') return c.expected("']'");
    c.next();
    if (size <= 0) {
      c.diags.report(Messages.ptxArraySize, span(c.file, sizeAt.start, sizeAt.end), [name, size]);
      return undefined;
    }
    if (spelling !== 'b8' && spelling !== 'u8' && spelling !== 's8') {
      c.diags.report(Messages.ptxParamType, span(c.file, typeAt.start, typeAt.end), [name, `${spelling}[]`]);
      return undefined;
    }
    const a = align ?? 1;
    if (!isPow2(a)) {
      c.diags.report(Messages.ptxAlign, span(c.file, alignAt.start, alignAt.end), [name, a]);
      return undefined;
    }
    const layout: ValueLayout = { kind: 'array', element: SCALAR_LAYOUT.u8, length: size, stride: 1, size, align: a };
    return { ...base, role: 'value', size, align: a, ptxType: 'b8', layout };
  }
  if (!Object.hasOwn(SCALAR_TYPES, spelling)) {
    c.diags.report(Messages.ptxParamType, span(c.file, typeAt.start, typeAt.end), [name, spelling]);
    return undefined;
  }
  const ptxType = SCALAR_TYPES[spelling as ScalarSpelling];
  const size = SIZE[ptxType];
  // A scalar's `.align` (rare, but legal PTX) raises its alignment in the buffer.
  const slotAlign = Math.max(size, align ?? 1);
  if (!isPow2(slotAlign) || (pointeeAlign !== undefined && !isPow2(pointeeAlign))) {
    c.diags.report(Messages.ptxAlign, span(c.file, alignAt.start, alignAt.end), [name, pointeeAlign ?? slotAlign]);
    return undefined;
  }
  if (space !== undefined) {
    return {
      ...base,
      role: SPACE_ROLE[space],
      size,
      align: slotAlign,
      ptxType,
      space,
      pointeeAlign: pointeeAlign ?? 1,
    };
  }
  return { ...base, role: 'value', size, align: slotAlign, ptxType, layout: SCALAR_LAYOUT[ptxType] };
}

/** The cursor stands after `.entry`: the name and the parameter list, laid out. */
function readEntry(c: Cursor, visible: boolean, sm: CudaSm): CudaKernelPlan | undefined {
  const nameTok = c.peek();
  if (nameTok === undefined || !/^[A-Za-z_$%][\w$.]*$/.test(nameTok)) return c.expected('a kernel name');
  c.next();
  const args: SlotLiteral<CudaSlot>[] = [];
  let offset = 0;
  if (c.peek() === '(') {
    c.next();
    while (c.peek() !== ')') {
      if (c.peek() !== '.param') return c.expected(args.length === 0 ? "'.param' or ')'" : "'.param'");
      c.next();
      const d = readParam(c, args.length);
      if (!d) return undefined;
      const at = paramOffset(offset, d.align, sm);
      args.push(cudaSlot({ ...d, offset: at }));
      offset = at + d.size;
      if (c.peek() === ',') c.next();
      else if (c.peek() !== ')') return c.expected("',' or ')'");
    }
    c.next();
  }
  const dynamicShared = args.filter((a) => a.role === 'local').map((a) => a.name);
  return placeCudaKernel({ name: nameTok, args, paramBytes: offset, dynamicShared }, visible ? 'pocl' : 'nvidia');
}

/**
 * The cuda plan of a PTX module. `localMemory` is `nvidia` for nvcl's `.entry` (pointers as `.ptr`
 * with their space) and `pocl` when an entry is `.visible` (the CUDA driver interface nvcc, Triton
 * and pocl's triple print: bare integer pointers). `sm`: the GPU whose driver places the parameters. Diagnostics point
 * at the PTX text.
 */
export function readPtx(
  bytes: Uint8Array,
  path: string,
  sm: CudaSm = DEFAULT_CUDA_SM,
): { plan?: CudaPlan; diagnostics: Diagnostic[] } {
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  const file = new SourceFile(path, text);
  const diags = new DiagnosticBag();
  const c = new Cursor(tokenize(text, file, diags), file, diags);
  if (diags.hasErrors) return { diagnostics: diags.items };
  let arch: CudaArch = 'nvptx64';
  const kernels: CudaKernelPlan[] = [];
  const visible = { any: false };
  let failed = false;
  let version = false;
  while (c.peek() !== undefined) {
    const t = c.next()!.text;
    if (t === '.version') version = true;
    else if (t === '.address_size') {
      const at = c.here();
      const n = c.number('an address size');
      if (n === undefined) return { diagnostics: diags.items };
      if (n !== 32 && n !== 64) {
        diags.report(Messages.ptxAddressSize, span(file, at.start, at.end), [n]);
        return { diagnostics: diags.items };
      }
      arch = n === 32 ? 'nvptx' : 'nvptx64';
    } else if (t === '.entry') {
      const isVisible = c.toks[c.i - 2]?.text === '.visible';
      if (isVisible) visible.any = true;
      const k = readEntry(c, isVisible, sm);
      if (k) kernels.push(k);
      else failed = true;
    } else if (t === '{') {
      // A body: skipped whole (braces nest), so its instructions are never read as directives.
      let depth = 1;
      while (depth > 0 && c.peek() !== undefined) {
        const u = c.next()!.text;
        if (u === '{') depth++;
        else if (u === '}') depth--;
      }
    }
  }
  if (failed) return { diagnostics: diags.items };
  // A module of device functions and variables only is PTX with no kernels: an empty plan.
  if (kernels.length === 0 && !version) {
    diags.report(Messages.ptxNoEntry, span(file, 0, 0));
    return { diagnostics: diags.items };
  }
  return {
    plan: { target: 'cuda', arch, sm, localMemory: visible.any ? 'pocl' : 'nvidia', kernels },
    diagnostics: diags.items,
  };
}
