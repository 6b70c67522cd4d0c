import { Messages } from '../../../diagnostics/messages.js';
import { type Inst04, NUMBER_CLASS, type NumberType, type Type04, type04Text } from './ast.js';
import type { CheckContext04 } from './check-context.js';
import { BOOL } from './type-rules.js';

/** The checks of tinytc v0.4's scalar instructions: which types an operation takes, unary results, constants. */

const component = (t: Type04): NumberType | null =>
  t.kind === 'number' ? t.name : t.kind === 'coopmatrix' ? t.component : null;
const INT_ONLY = new Set(['shl', 'shr', 'and', 'or', 'xor', 'not']);
const NO_COMPLEX = new Set(['rem', 'min', 'max', ...INT_ONLY]);

/** Integer-only and complex-refusing instructions, as tinytc's `Floating point type unsupported by instruction`. */
export function checkSupported(fc: CheckContext04, inst: Inst04, t: Type04): void {
  const c = component(t);
  const cls = c ? NUMBER_CLASS[c] : t.kind === 'bool' ? 'bool' : null;
  const bad =
    (INT_ONLY.has(inst.op) && cls !== 'int' && !(cls === 'bool' && inst.op !== 'shl' && inst.op !== 'shr')) ||
    (NO_COMPLEX.has(inst.op) && cls === 'complex');
  if (bad || cls === null) fc.diags.report(Messages.ir04TypeUnsupported, inst.span, [inst.op, type04Text(t)]);
}

/** The type a unary instruction (cast, associated, arithmetic, math, coopmatrix) gives. */
export function unaryType(fc: CheckContext04, inst: Extract<Inst04, { form: 'unary' }>): Type04 {
  const ty = inst.type.type;
  if (inst.op === 'cast') {
    const a = fc.use(inst.a, null, 'cast');
    const from = a && component(a);
    const to = component(ty);
    if (a && (!from || !to || (a.kind === 'coopmatrix') !== (ty.kind === 'coopmatrix')))
      fc.diags.report(Messages.irTypeMismatch, inst.span, [
        `cast converts numbers (or coopmatrices), not ${type04Text(a)} to ${type04Text(ty)}`,
      ]);
    else if (from && to && NUMBER_CLASS[from] === 'complex' && NUMBER_CLASS[to] !== 'complex')
      fc.diags.report(Messages.ir04ForbiddenCast, inst.span, [type04Text(a!), type04Text(ty)]);
    return ty;
  }
  if (inst.op === 'associated') {
    fc.use(inst.a, null, 'associated');
    return fc.gives(inst, BOOL);
  }
  if (inst.op === 'cooperative_matrix_construct') {
    fc.use(inst.a, null, inst.op);
    if (ty.kind !== 'coopmatrix')
      fc.diags.report(Messages.irTypeMismatch, inst.type.span, [
        `${inst.op} makes a coopmatrix, not ${type04Text(ty)}`,
      ]);
    return ty;
  }
  const a = fc.use(inst.a, null, inst.op);
  if (!a) return ty;
  if (inst.op.startsWith('cooperative_matrix_reduce')) return ty;
  checkSupported(fc, inst, a);
  const c = component(a);
  if ((inst.op === 'im' || inst.op === 're' || inst.op === 'abs') && c && NUMBER_CLASS[c] === 'complex') {
    const real: Type04 = { kind: 'number', name: c === 'c32' ? 'f32' : 'f64' };
    return fc.gives(inst, a.kind === 'coopmatrix' ? { ...a, component: real.name as NumberType } : real);
  }
  if (/^(native_)?(cos|sin|exp2?|log2?)$/.test(inst.op) && c && NUMBER_CLASS[c] === 'int')
    fc.diags.report(Messages.ir04TypeUnsupported, inst.span, [inst.op, type04Text(a)]);
  return fc.gives(inst, a);
}

/** A constant's literal must suit its type and, for an integer, fit it. */
export function checkConstant(fc: CheckContext04, inst: Extract<Inst04, { form: 'constant' }>): void {
  const ty = inst.type.type;
  const c = ty.kind === 'bool' ? 'bool' : component(ty);
  const cls = c === 'bool' ? 'bool' : c ? NUMBER_CLASS[c] : null;
  const lit = inst.literal;
  const ok =
    cls === 'bool'
      ? lit.kind === 'bool'
      : cls === 'int'
        ? lit.kind === 'int'
        : cls === 'float'
          ? lit.kind === 'float' || lit.kind === 'int'
          : cls === 'complex'
            ? lit.kind !== 'bool'
            : false;
  if (!ok)
    fc.diags.report(Messages.irTypeMismatch, inst.literalSpan, [
      `a ${lit.kind} constant cannot have type ${type04Text(ty)}`,
    ]);
  if (ok && cls === 'int' && lit.kind === 'int' && c) {
    const bits = c === 'i8' ? 8 : c === 'i16' ? 16 : c === 'i32' ? 32 : 64;
    if (BigInt.asIntN(bits, lit.value) !== lit.value)
      fc.diags.report(Messages.irImmediateRange, inst.literalSpan, [lit.value.toString(), c]);
  }
}
