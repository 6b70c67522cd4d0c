import { INT_BITS, type Inst, type ScalarTypeName, isFloatType } from '../../frontend/tinytc/ast.js';
import type { BodyScope } from './body-scope.js';
import { arithNumber, castNumber, cmpNumber, isV04Number, isV04Unary, unaryNumber } from './numbers.js';
import { C_TYPE, wrapType } from './c-scalars.js';

// The scalar instructions (arith, cmp, cast) as OpenCL C expressions, each declared in a variable of its own.

const ARITH_OP: Record<string, string> = {
  add: '+',
  sub: '-',
  mul: '*',
  div: '/',
  rem: '%',
  and: '&',
  or: '|',
  xor: '^',
};
const CMP_OP: Record<string, string> = { eq: '==', ne: '!=', gt: '>', ge: '>=', lt: '<', le: '<=' };

export function cmpC(s: BodyScope, inst: Extract<Inst, { op: 'cmp' }>, result: string): void {
  const t = (inst.type.type as { name: ScalarTypeName }).name;
  const [a, b] = inst.operands.map((o) => s.scalar(o, t));
  const expr = isV04Number(t) ? cmpNumber(CMP_OP[inst.fn], t, a, b) : `${a} ${CMP_OP[inst.fn]} ${b}`;
  s.declare(result, 'bool', expr, 'i1');
}

export function castC(s: BodyScope, inst: Extract<Inst, { op: 'cast' }>, result: string): void {
  const from = (inst.from.type as { name: ScalarTypeName }).name;
  const to = (inst.to.type as { name: ScalarTypeName }).name;
  const a = s.scalar(inst.operand, from);
  if (isV04Number(from) || isV04Number(to)) s.declare(result, C_TYPE[to], castNumber(a, from, to), to);
  else s.declare(result, C_TYPE[to], to === 'i1' ? `${a} != 0` : `(${C_TYPE[to]})${a}`, to);
}

export function arithC(s: BodyScope, inst: Extract<Inst, { op: 'arith' }>, result: string): void {
  const t = (inst.type.type as { name: ScalarTypeName }).name;
  const ct = C_TYPE[t];
  const [a, b] = inst.operands.map((o) => s.scalar(o, t));
  // tinytc v0.4's types and one-operand functions (numbers.ts); abs, im and re of a complex number are real.
  if ((inst.operands.length === 1 && isV04Unary(inst.fn, t)) || isV04Number(t)) {
    const rt = (s.types.get(result) as { name: ScalarTypeName }).name;
    const expr = inst.operands.length === 1 ? unaryNumber(inst.fn, t, a) : arithNumber(inst.fn, t, a, b);
    s.declare(result, C_TYPE[rt], expr, rt);
    return;
  }
  let expr: string;
  if (t === 'i1') expr = inst.fn === 'not' ? `!${a}` : `${a} ${ARITH_OP[inst.fn]} ${b}`;
  else if (isFloatType(t))
    expr = inst.fn === 'neg' ? `-${a}` : inst.fn === 'rem' ? `fmod(${a}, ${b})` : `${a} ${ARITH_OP[inst.fn]} ${b}`;
  else {
    // Integers wrap (through the unsigned type) and shift by the count modulo the width, as OpenCL C does for vectors.
    const u = wrapType(t);
    const mask = INT_BITS[t]! - 1;
    switch (inst.fn) {
      case 'add':
      case 'sub':
      case 'mul':
        expr = `(${ct})((${u})${a} ${ARITH_OP[inst.fn]} (${u})${b})`;
        break;
      case 'neg':
        expr = `(${ct})(-(${u})${a})`;
        break;
      case 'not':
        expr = `(${ct})~${a}`;
        break;
      case 'shl':
        expr = `(${ct})((${u})${a} << (${b} & ${mask}))`;
        break;
      case 'shr':
        expr = `(${ct})(${a} >> (${b} & ${mask}))`;
        break;
      default:
        expr = `(${ct})(${a} ${ARITH_OP[inst.fn]} ${b})`;
    }
  }
  s.declare(result, ct, expr, t);
}
