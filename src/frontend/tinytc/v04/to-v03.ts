// kernarg's code generators (OpenCL C, Vulkan SPIR-V) read tinytc v0.3's syntax tree. A v0.4
// function whose instructions all have a v0.3 counterpart is rewritten into that tree, so both
// versions share one lowering (codegen/lowered.ts) and every printer: `constant` values become the
// immediates v0.3 writes in place, `add` becomes `arith.add`, `equal` `cmp.eq`, and the operand
// types v0.3 spells after ':' come from the v0.4 checker. `barrier` is dropped: kernarg places
// barriers itself (codegen/barriers.ts) as it does for v0.3. `group_id.x` is the batch index, as
// v0.3's `group_id`: kernarg launches the batch along one axis for both. Each instruction without a
// counterpart is reported (KA2420) and the function is not generated; its interface still is.
import type { Diagnostic } from '../../../diagnostics/diagnostic.js';
import { DiagnosticBag } from '../../../diagnostics/diagnostic.js';
import { Messages } from '../../../diagnostics/messages.js';
import type { Span } from '../../../diagnostics/source.js';
import type { Func, Inst, IrType, MemrefType, Operand, Program, Region, ScalarTypeName, Slice, TypedSpan } from '../ast.js';
import type { Func04, Inst04, Literal, Program04, Region04, Type04, ValueRef } from './ast.js';
import type { ValueTypes04 } from './check.js';

const CMP = { equal: 'eq', not_equal: 'ne', greater_than: 'gt', greater_than_equal: 'ge', less_than: 'lt', less_than_equal: 'le' } as const satisfies Record<string, string>;
const ARITH = new Set(['add', 'sub', 'mul', 'div', 'rem', 'shl', 'shr', 'and', 'or', 'xor']);
const SCALAR: Partial<Record<string, ScalarTypeName>> = { i8: 'i8', i16: 'i16', i32: 'i32', i64: 'i64', index: 'index', f32: 'f32', f64: 'f64' };

class NotLowered extends Error {
  constructor(readonly what: string, readonly span: Span) {
    super(what);
  }
}

/** The v0.3 type of a v0.4 type, or why there is none. */
function type03(t: Type04, span: Span): IrType {
  switch (t.kind) {
    case 'bool':
      return { kind: 'scalar', name: 'i1' };
    case 'number': {
      const s = SCALAR[t.name];
      if (!s) throw new NotLowered(t.name, span);
      return { kind: 'scalar', name: s };
    }
    case 'memref':
      return memref03(t, span);
    case 'group':
      return { kind: 'group', memref: memref03(t.memref, span), offset: t.offset };
    case 'coopmatrix':
      throw new NotLowered('coopmatrix', span);
    case 'void':
      return { kind: 'void' };
  }
}

function memref03(t: Extract<Type04, { kind: 'memref' }>, span: Span): MemrefType {
  const s = SCALAR[t.element];
  if (!s) throw new NotLowered(`memref of ${t.element}`, span);
  return { kind: 'memref', element: s, shape: t.shape, stride: t.stride, explicitStride: t.explicitStride };
}

class Translator {
  /** `constant` results, written in place as v0.3 immediates. */
  private readonly constants = new Map<string, Literal>();

  /** `known`: the v0.3 types of an earlier pass's rewrite, which win over the v0.4 annotations. */
  constructor(private readonly types: ValueTypes04, private readonly known: ReadonlyMap<string, IrType> | undefined) {}

  private typeOf(v: ValueRef): IrType {
    const k = this.known?.get(v.name);
    if (k) return k;
    const t = this.types.get(v.name);
    if (!t) throw new NotLowered(`%${v.name}`, v.span);
    return type03(t, v.span);
  }
  private typed(v: ValueRef): TypedSpan {
    return { type: this.typeOf(v), span: v.span };
  }
  private operand(v: ValueRef): Operand {
    const c = this.constants.get(v.name);
    if (!c) return { kind: 'value', name: v.name, span: v.span };
    if (c.kind === 'int') return { kind: 'int', value: c.value, span: v.span };
    if (c.kind === 'bool') return { kind: 'int', value: c.value ? 1n : 0n, span: v.span };
    if (c.kind === 'float') return { kind: 'float', value: c.value, span: v.span };
    throw new NotLowered('a complex constant', v.span);
  }
  private intOr(o: { kind: 'value'; name: string; span: Span } | { kind: 'int'; value: number; span: Span }): Operand {
    return o.kind === 'int' ? { kind: 'int', value: BigInt(o.value), span: o.span } : this.operand(o);
  }

  region(r: Region04): Region {
    return { body: r.body.flatMap((i) => this.inst(i)), span: r.span };
  }

  private inst(inst: Inst04): Inst[] {
    const base = { results: inst.results, span: inst.span };
    const one = (x: object): Inst[] => [{ ...base, ...x } as Inst];
    const no = (): never => {
      throw new NotLowered(inst.op + inst.flags.join(''), inst.span);
    };
    switch (inst.form) {
      case 'constant':
        this.constants.set(inst.results[0]?.name ?? '', inst.literal);
        if (inst.type.type.kind !== 'bool') type03(inst.type.type, inst.type.span);
        return [];
      case 'binary': {
        const ty = this.typed(inst.a);
        if (inst.op in CMP) return one({ op: 'cmp', fn: CMP[inst.op as keyof typeof CMP], operands: [this.operand(inst.a), this.operand(inst.b)], type: ty });
        if (!ARITH.has(inst.op)) return no();
        return one({ op: 'arith', fn: inst.op, operands: [this.operand(inst.a), this.operand(inst.b)], type: ty });
      }
      case 'unary':
        if (inst.op === 'neg' || inst.op === 'not') return one({ op: 'arith', fn: inst.op, operands: [this.operand(inst.a)], type: this.typed(inst.a) });
        if (inst.op === 'cast') return one({ op: 'cast', operand: this.operand(inst.a), from: this.typed(inst.a), to: { type: type03(inst.type.type, inst.type.span), span: inst.type.span } });
        return no();
      case 'builtin':
        // v0.3's group_id and group_size are index; a narrower annotation has no v0.3 spelling.
        if (inst.type.type.kind !== 'number' || inst.type.type.name !== 'index') return no();
        if (inst.op === 'group_id' && inst.flags.join('') === '.x') return one({ op: 'group_id' });
        if (inst.op === 'num_groups' && inst.flags.join('') === '.x') return one({ op: 'group_size' });
        return no();
      case 'alloca':
        return one({ op: 'alloca', type: { type: type03(inst.type.type, inst.type.span), span: inst.type.span } });
      case 'load':
        if (inst.op !== 'load') return no();
        return one({ op: 'load', operand: this.operand(inst.operand), indices: inst.indices.map((i) => this.operand(i)), type: this.typed(inst.operand) });
      case 'store':
        if (inst.op !== 'store' || inst.flags.length) return no();
        return one({ op: 'store', value: this.operand(inst.value), operand: this.operand(inst.operand), indices: inst.indices.map((i) => this.operand(i)), type: this.typed(inst.operand) });
      case 'size': {
        const t = this.types.get(inst.operand.name);
        if (t?.kind !== 'memref') return no();
        return one({ op: 'size', operand: this.operand(inst.operand), mode: inst.mode, type: this.typed(inst.operand) });
      }
      case 'subview': {
        const slices: Slice[] = inst.slices.map((s) =>
          s.size === null || (s.size.kind === 'int' && s.size.value === 0) ? { kind: 'index', index: this.intOr(s.offset) } : { kind: 'range', offset: this.intOr(s.offset), size: this.intOr(s.size) },
        );
        return one({ op: 'subview', operand: this.operand(inst.operand), slices, type: this.typed(inst.operand) });
      }
      case 'expand':
        return one({ op: 'expand', operand: this.operand(inst.operand), mode: inst.mode, shape: inst.shape.map((o) => this.intOr(o)), shapeDynamic: inst.shape.map(() => false), type: this.typed(inst.operand) });
      case 'fuse':
        return one({ op: 'fuse', operand: this.operand(inst.operand), from: inst.from, to: inst.to, type: this.typed(inst.operand) });
      case 'blas': {
        if (inst.op === 'cumsum') return no();
        const trans = inst.flags.filter((f) => f === '.n' || f === '.t').map((f) => f.slice(1) as 'n' | 't');
        const need = inst.op === 'gemm' ? 2 : inst.op === 'axpby' || inst.op === 'sum' || inst.op === 'gemv' ? 1 : 0;
        while (trans.length < need) trans.push('n');
        return one({ op: 'blas', fn: inst.op, transA: trans[0] ?? null, transB: trans[1] ?? null, atomic: inst.flags.includes('.atomic'), operands: inst.operands.map((v) => this.operand(v)), types: inst.operands.map((v) => this.typed(v)) });
      }
      case 'barrier':
        return [];
      case 'if':
        return one({ op: 'if', condition: this.operand(inst.condition), resultTypes: inst.resultTypes.map((t) => ({ type: type03(t.type, t.span), span: t.span })), then: this.region(inst.then), else: inst.else ? this.region(inst.else) : null });
      case 'yield':
        return one({ op: 'yield', operands: inst.values.map((v) => this.operand(v)), types: inst.values.map((v) => this.typed(v)) });
      case 'for': {
        if (inst.init.length) return no();
        const lt: TypedSpan = this.typed(inst.from);
        return one({ op: 'for', variable: inst.variable, from: this.operand(inst.from), to: this.operand(inst.to), step: inst.step ? this.operand(inst.step) : null, loopType: lt, body: this.region(inst.body) });
      }
      case 'foreach': {
        if (inst.tile || inst.variables.length !== 1) return no();
        return one({ op: 'foreach', variable: inst.variables[0], from: this.operand(inst.from[0]), to: this.operand(inst.to[0]), step: null, loopType: this.typed(inst.from[0]), body: this.region(inst.body) });
      }
      case 'parallel':
      case 'matrix':
        return no();
    }
  }
}

/**
 * The v0.3 tree of each v0.4 function, or the reasons it has none (KA2420 diagnostics, one per
 * function: the first instruction or type without a v0.3 counterpart). v0.3 writes each operand's
 * type after ':' and infers view types itself, more statically where a v0.4 `constant` became an
 * immediate (`subview %a[0:%six]` of a v0.4 `?` is `0:6`, static 6); `known` carries the types v0.3
 * inferred for an earlier rewrite, so a caller can rewrite again until the annotations agree.
 */
export function toV03(program: Program04, types: ReadonlyMap<Func04, ValueTypes04>, known?: ReadonlyMap<string, ReadonlyMap<string, IrType>>): { program: Program; notLowered: Diagnostic[] } {
  const bag = new DiagnosticBag();
  const funcs: Func[] = [];
  for (const f of program.funcs) {
    const t = new Translator(types.get(f)!, known?.get(f.name));
    try {
      const params = f.params.map((p) => {
        // v0.3 has no memref parameter in local memory (its code generators make global ones).
        if ((p.type.kind === 'memref' ? p.type : p.type.kind === 'group' ? p.type.memref : null)?.space === 'local') throw new NotLowered('a memref parameter in local memory', p.typeSpan);
        return { name: p.name, span: p.span, type: type03(p.type, p.typeSpan), typeSpan: p.typeSpan };
      });
      funcs.push({ name: f.name, span: f.span, params, workGroupSize: f.workGroupSize, subgroupSize: f.subgroupSize, body: t.region(f.body) });
    } catch (e) {
      if (!(e instanceof NotLowered)) throw e;
      bag.report(Messages.ir04NotLowered, e.span, [e.what]);
    }
  }
  return { program: { funcs }, notLowered: [...bag.items] };
}
