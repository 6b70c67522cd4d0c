// tinytc v0.4's cooperative matrices in SPIR-V, as tinytc's converter stores them (src/spv/coopmatrix_impl.cpp
// at v0.4.0): a work-item's components in one composite — the component itself when it holds one, a vector of
// them, a complex component as its two parts in a row, and matrix_a's narrow components packed four i8 or two
// 16-bit ones to an i32 (a bitcast to the channel vector reads or writes one). Where tinytc's arithmetic would
// make an invalid module kernarg keeps to valid SPIR-V: a composite of 2 to 4 entries is a vector (what tinytc
// prints), a longer one an array (OpenCL and Vulkan take no vector of 5, 6, 7 or more than 4 without
// Vector16); a packed matrix has ⌈length / channels⌉ i32 entries, and its constant is made of those. A composite
// of values that are not constants is built by OpCompositeInsert from an OpUndef: the SPIR-V reader of LLVM 15
// (llvm-spirv-15, which PoCL loads SPIR-V with) takes OpCompositeConstruct of constants only, and crashes on
// any other; one of constants is OpCompositeConstruct, as tinytc prints it.
import { Op } from '../../emit/spirv/spec.js';
import { NumberOp } from '../../emit/spirv/number-ops.js';
import { type Operand, type ScalarTypeName, componentType, isComplexType } from '../../frontend/tinytc/ast.js';
import type { CoopmatrixType } from '../../frontend/tinytc/coopmatrix-layout.js';
import { bf16Bits } from '../../layout/bfloat16.js';
import { halfBits } from '../../layout/half.js';
import type { NumberGen } from './number-gen.js';

/** What these helpers use of gen.ts's Gen (which asks them for coopmatrix types): NumberGen and complex constants. */
interface Gen extends NumberGen {
  complexConstant(t: 'c32' | 'c64', re: number, im: number): number;
}

/** How one coopmatrix type is stored: entries of `entry` type (`count` of them), `channels` components each. */
interface Storage {
  readonly type: number;
  readonly entry: number;
  readonly count: number;
  readonly channels: number;
  readonly complex: boolean;
}

function storage(g: Gen, t: CoopmatrixType): Storage {
  const l = t.layout;
  const complex = isComplexType(t.component);
  const channels = complex ? 1 : l.opsPerChannel;
  const entry = complex
    ? g.type(componentType(t.component as 'c32' | 'c64'))
    : channels > 1
      ? g.type('i32')
      : g.type(t.component);
  const count = complex ? 2 * l.length : Math.ceil(l.length / channels);
  const type =
    l.length === 1
      ? g.type(t.component)
      : count === 1
        ? entry
        : count <= 4
          ? g.b.typeVector(entry, count)
          : g.b.typeArray(entry, count);
  return { type, entry, count, channels, complex };
}

/** The SPIR-V type of a coopmatrix value. */
export function coopmatrixSpirvType(g: Gen, t: CoopmatrixType): number {
  return storage(g, t).type;
}

/** The channel vector one packed i32 entry holds. */
const channelType = (g: Gen, t: CoopmatrixType, s: Storage): number => g.b.typeVector(g.type(t.component), s.channels);

/** A composite of `parts`: OpCompositeConstruct where they are constants, else inserts into an OpUndef. */
function composite(g: Gen, type: number, parts: readonly number[], constants: boolean): number {
  if (constants) return g.f.op(NumberOp.CompositeConstruct, type, ...parts);
  return parts.reduce((acc, p, i) => g.f.op(NumberOp.CompositeInsert, type, p, acc, i), g.f.op(NumberOp.Undef, type));
}

/** Component v of a coopmatrix value. */
export function coopmatrixExtract(g: Gen, t: CoopmatrixType, mat: number, v: number): number {
  const s = storage(g, t);
  if (t.layout.length === 1) return mat;
  if (s.complex) {
    const re = g.f.op(Op.CompositeExtract, s.entry, mat, 2 * v);
    const im = g.f.op(Op.CompositeExtract, s.entry, mat, 2 * v + 1);
    return composite(g, g.type(t.component), [re, im], false);
  }
  if (s.channels > 1) {
    const packed = s.count > 1 ? g.f.op(Op.CompositeExtract, s.entry, mat, Math.floor(v / s.channels)) : mat;
    const chans = g.f.op(Op.Bitcast, channelType(g, t, s), packed);
    return g.f.op(Op.CompositeExtract, g.type(t.component), chans, v % s.channels);
  }
  return g.f.op(Op.CompositeExtract, g.type(t.component), mat, v);
}

/** The coopmatrix value `mat` with component v replaced by `val`. */
export function coopmatrixInsert(g: Gen, t: CoopmatrixType, val: number, mat: number, v: number): number {
  const s = storage(g, t);
  if (t.layout.length === 1) return val;
  if (s.complex) {
    const re = g.f.op(Op.CompositeExtract, s.entry, val, 0);
    const im = g.f.op(Op.CompositeExtract, s.entry, val, 1);
    const half = g.f.op(NumberOp.CompositeInsert, s.type, re, mat, 2 * v);
    return g.f.op(NumberOp.CompositeInsert, s.type, im, half, 2 * v + 1);
  }
  if (s.channels > 1) {
    const entry = Math.floor(v / s.channels);
    const ct = channelType(g, t, s);
    const packed = s.count > 1 ? g.f.op(Op.CompositeExtract, s.entry, mat, entry) : mat;
    let chans = g.f.op(Op.Bitcast, ct, packed);
    chans = g.f.op(NumberOp.CompositeInsert, ct, val, chans, v % s.channels);
    const back = g.f.op(Op.Bitcast, s.entry, chans);
    return s.count > 1 ? g.f.op(NumberOp.CompositeInsert, s.type, back, mat, entry) : back;
  }
  return g.f.op(NumberOp.CompositeInsert, s.type, val, mat, v);
}

/**
 * A coopmatrix whose components all hold `number` (an id of the component type; `constant` when it is an
 * OpConstant), or undefined ones (null).
 */
export function coopmatrixConstruct(g: Gen, t: CoopmatrixType, number: number | null, constant = false): number {
  const s = storage(g, t);
  if (number === null) return g.f.op(NumberOp.Undef, s.type);
  if (t.layout.length === 1) return number;
  let parts: number[];
  if (s.complex) {
    const re = g.f.op(Op.CompositeExtract, s.entry, number, 0);
    const im = g.f.op(Op.CompositeExtract, s.entry, number, 1);
    parts = Array.from({ length: s.count }, (_, i) => (i % 2 ? im : re));
  } else if (s.channels > 1) {
    const ct = channelType(g, t, s);
    let chans = g.f.op(NumberOp.Undef, ct);
    for (let i = 0; i < s.channels; i++) chans = g.f.op(NumberOp.CompositeInsert, ct, number, chans, i);
    parts = new Array<number>(s.count).fill(g.f.op(Op.Bitcast, s.entry, chans));
  } else parts = new Array<number>(s.count).fill(number);
  // A complex constant's parts and a packed entry are computed here (OpCompositeExtract, OpBitcast): no constants.
  return parts.length === 1 ? parts[0] : composite(g, s.type, parts, constant && !s.complex && s.channels === 1);
}

/** A coopmatrix constant (tinytc's `constant … : coopmatrix<…>`): a null constant for 0, else a constant composite. */
export function coopmatrixConstant(g: Gen, t: CoopmatrixType, literal: Operand): number {
  const s = storage(g, t);
  const c = t.component;
  const re = literal.kind === 'complex' ? literal.re : literal.kind === 'int' ? Number(literal.value) : 0;
  const value = literal.kind === 'float' ? literal.value : re;
  const im = literal.kind === 'complex' ? literal.im : 0;
  if (value === 0 && im === 0) return g.b.constantNull(s.type);
  const scalar = () =>
    literal.kind === 'complex'
      ? g.complexConstant(c as 'c32' | 'c64', literal.re, literal.im)
      : g.constant(c, literal.kind === 'int' && !isFloatish(c) ? literal.value : value);
  if (t.layout.length === 1) return scalar();
  let parts: number[];
  if (s.complex) {
    const f = componentType(c as 'c32' | 'c64');
    parts = Array.from({ length: s.count }, (_, i) => g.constant(f, i % 2 ? im : value));
  } else if (s.channels > 1) {
    const bits = channelBits(c, literal);
    const width = 32 / s.channels;
    let word = 0n;
    for (let i = 0; i < s.channels; i++) word |= bits << BigInt(i * width);
    parts = new Array<number>(s.count).fill(g.b.constant(s.entry, BigInt.asIntN(32, word), 32));
  } else parts = new Array<number>(s.count).fill(scalar());
  return parts.length === 1 ? parts[0] : g.b.constantComposite(s.type, parts);
}

const isFloatish = (t: ScalarTypeName): boolean =>
  t === 'f16' || t === 'bf16' || t === 'f32' || t === 'f64' || isComplexType(t);

/** The bits of one packed channel: an i8 or i16 wrapped to its width, an f16 or bf16 as tinytc rounds it. */
function channelBits(t: ScalarTypeName, literal: Operand): bigint {
  const x = literal.kind === 'int' ? literal.value : literal.kind === 'float' ? literal.value : 0;
  if (t === 'i8') return BigInt.asUintN(8, BigInt(x));
  if (t === 'i16') return BigInt.asUintN(16, BigInt(x));
  // tinytc rounds the literal to float first, then to the 16-bit type (halfBits and bf16Bits take a number).
  const f = Math.fround(Number(x));
  return BigInt(t === 'f16' ? halfBits(f) : bf16Bits(f));
}
