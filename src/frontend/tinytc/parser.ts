import { Messages } from '../../diagnostics/messages.js';
import { type Span, joinSpans } from '../../diagnostics/source.js';
import {
  type Dim,
  I32_MAX,
  type Func,
  type Inst,
  type IrType,
  type MemrefType,
  type Operand,
  type Param,
  type Program,
  type Region,
  SCALAR_TYPES,
  type ScalarTypeName,
  type Slice,
  type TypedSpan,
  canonicalStride,
} from './ast.js';
import type { IrToken, IrTokenKind } from './lexer.js';
import { ParserCore } from './parser-core.js';
import { parseFloatLiteral } from '../opencl-c/literals.js';

const BLAS = new Set(['axpby', 'sum', 'gemm', 'gemv', 'ger', 'hadamard']);
const ARITH = new Set(['add', 'sub', 'mul', 'div', 'rem', 'shl', 'shr', 'and', 'or', 'xor', 'neg', 'not']);
const CMP = new Set(['eq', 'ne', 'gt', 'ge', 'lt', 'le']);

/** Recursive-descent parser for tinytc v0.3 IR (the cursor, lists and shared type parts: parser-core.ts). */
export class IrParser extends ParserCore<IrTokenKind, IrType> {
  protected matchesText(kind: IrTokenKind): boolean {
    return kind === 'punct' || kind === 'word';
  }
  protected shown(t: IrToken): string {
    return t.text;
  }

  parse(): Program {
    const funcs: Func[] = [];
    this.topLevel(() => funcs.push(this.func()));
    return { funcs };
  }

  private int(what: string): { value: number; token: IrToken } {
    const t = this.next();
    if (t.kind !== 'int' || !/^[-+]?\d+$/.test(t.text)) this.fail(Messages.expectedButFound, t, [what, t.text]);
    return { value: this.safeInt(t), token: t };
  }

  private func(): Func {
    const kw = this.expect('func');
    const nameTok = this.next();
    if (nameTok.kind !== 'global')
      this.fail(Messages.expectedButFound, nameTok, ["a function name '@name'", nameTok.text]);
    this.expect('(');
    const params = this.list((): Param => {
      const p = this.next();
      if (p.kind !== 'local') this.fail(Messages.expectedButFound, p, ["a parameter '%name'", p.text]);
      this.expect(':');
      const { type, span } = this.typed();
      return { name: p.text, span: p.span, type, typeSpan: span };
    }, ')');
    this.expect(')');
    let workGroupSize: [number, number] | null = null;
    let subgroupSize: number | null = null;
    let attrSpan: Span | undefined;
    for (;;) {
      if (this.is('work_group_size')) {
        const a = this.next();
        this.expect('(');
        const m = this.int('an integer');
        this.expect(',');
        const n = this.int('an integer');
        this.expect(')');
        if (m.value <= 0 || n.value <= 0)
          this.fail(Messages.badAttributeArgs, this.spanFrom(a), ['work_group_size', 'must be positive']);
        if (m.value > I32_MAX || n.value > I32_MAX)
          this.fail(Messages.badAttributeArgs, this.spanFrom(a), [
            'work_group_size',
            `must fit in i32 (at most ${I32_MAX})`,
          ]);
        workGroupSize = [m.value, n.value];
        attrSpan = this.spanFrom(a);
      } else if (this.is('subgroup_size')) {
        const a = this.next();
        this.expect('(');
        const s = this.int('an integer');
        this.expect(')');
        if (s.value <= 0) this.fail(Messages.badAttributeArgs, this.spanFrom(a), ['subgroup_size', 'must be positive']);
        if (s.value > I32_MAX)
          this.fail(Messages.badAttributeArgs, this.spanFrom(a), [
            'subgroup_size',
            `must fit in i32 (at most ${I32_MAX})`,
          ]);
        subgroupSize = s.value;
        attrSpan ??= this.spanFrom(a);
      } else break;
    }
    const body = this.region();
    return {
      name: nameTok.text,
      span: joinSpans(kw.span, nameTok.span),
      params,
      workGroupSize,
      subgroupSize,
      attrSpan,
      body,
    };
  }

  private region(): Region {
    return this.regionOf<Inst>((body) => body.push(this.inst()));
  }

  private scalarType(): ScalarTypeName {
    const t = this.next();
    if (t.kind !== 'word' || !(SCALAR_TYPES as readonly string[]).includes(t.text))
      this.fail(Messages.expectedButFound, t, ['a scalar type', t.text]);
    return t.text as ScalarTypeName;
  }

  private dim(): { dim: Dim; token: IrToken } {
    if (this.is('?')) return { dim: null, token: this.next() };
    const { value, token } = this.int("an extent or '?'");
    return { dim: value, token };
  }

  /** An extent or '?' that must not be negative (a stride, a group offset). */
  private nonNegative(rule: string): Dim {
    const d = this.dim();
    if (d.dim !== null && d.dim < 0) this.fail(Messages.irTypeSyntax, d.token, [`${rule}, not ${d.dim}`]);
    return d.dim;
  }

  private memrefType(): MemrefType {
    const kw = this.expect('memref');
    this.expect('<');
    const element = this.scalarType();
    const shape: Dim[] = [];
    while (this.accept('x')) {
      const d = this.dim();
      if (d.dim !== null && d.dim <= 0)
        this.fail(Messages.irTypeSyntax, d.token, [`a memref extent must be positive, not ${d.dim}`]);
      shape.push(d.dim);
    }
    let stride: Dim[] = canonicalStride(shape);
    let explicitStride = false;
    if (this.accept(',')) {
      stride = this.strideList(this.expect('strided'), shape.length, () =>
        this.nonNegative('a stride must not be negative'),
      );
      explicitStride = true;
    }
    this.expect('>');
    void kw;
    return { kind: 'memref', element, shape, stride, explicitStride };
  }

  type(): IrType {
    const t = this.peek();
    if (t.kind === 'word' && (SCALAR_TYPES as readonly string[]).includes(t.text))
      return { kind: 'scalar', name: this.scalarType() };
    if (this.is('memref')) return this.memrefType();
    if (this.is('group')) {
      this.next();
      this.expect('<');
      const memref = this.memrefType();
      const offset = this.groupOffset(() => this.nonNegative('a group offset must not be negative'));
      this.expect('>');
      return { kind: 'group', memref, offset };
    }
    return this.found(t, 'a type');
  }

  private operand(): Operand {
    const t = this.next();
    if (t.kind === 'local') return { kind: 'value', name: t.text, span: t.span };
    if (t.kind === 'int') {
      // Decimal or hexadecimal with an optional sign; `0x` with no digits is refused, not handed to BigInt.
      const m = /^([-+]?)(0[xX][0-9a-fA-F]+|[0-9]+)$/.exec(t.text);
      if (!m) this.fail(Messages.constExprInvalid, t, [`'${t.text}' is not a valid integer constant`]);
      const magnitude = BigInt(m[2]);
      return { kind: 'int', value: m[1] === '-' ? -magnitude : magnitude, span: t.span };
    }
    if (t.kind === 'float') {
      const neg = t.text.startsWith('-');
      const f = parseFloatLiteral(t.text.replace(/^[-+]/, ''));
      if (typeof f === 'string') this.fail(Messages.constExprInvalid, t, [f]);
      return { kind: 'float', value: neg ? -f.value : f.value, span: t.span };
    }
    if (t.kind === 'word' && (t.text === 'true' || t.text === 'false'))
      return { kind: 'int', value: t.text === 'true' ? 1n : 0n, span: t.span };
    if (t.kind === 'eof') this.fail(Messages.unexpectedEof, t, ['an operand']);
    return this.fail(Messages.expectedButFound, t, ["an operand ('%value' or an immediate)", t.text]);
  }

  private operands(): Operand[] {
    return this.list(() => this.operand());
  }

  private indexList(): Operand[] {
    this.expect('[');
    const out = this.list(() => this.operand(), ']');
    this.expect(']');
    return out;
  }

  private inst(): Inst {
    const start = this.peek();
    const results: { name: string; span: Span }[] = [];
    if (start.kind === 'local') {
      for (;;) {
        const r = this.next();
        if (r.kind !== 'local') this.fail(Messages.expectedButFound, r, ["a result '%name'", r.text]);
        results.push({ name: r.text, span: r.span });
        if (!this.accept(',')) break;
      }
      this.expect('=');
    }
    const op = this.next();
    if (op.kind !== 'word') this.fail(Messages.expectedButFound, op, ['an instruction', op.text]);
    const parts = op.text.split('.');
    const head = parts[0];
    const done = <T extends object>(x: T): Inst => ({ results, span: this.spanFrom(start), ...x }) as unknown as Inst;
    switch (head) {
      case 'alloca':
        this.expect('->');
        return done({ op: 'alloca', type: this.typed() });
      case 'arith': {
        if (parts.length !== 2 || !ARITH.has(parts[1]))
          this.fail(Messages.expectedButFound, op, ['an arith instruction (arith.add, …)', op.text]);
        const operands = this.operands();
        this.expect(':');
        return done({ op: 'arith', fn: parts[1], operands, type: this.typed() });
      }
      case 'cmp': {
        if (parts.length !== 2 || !CMP.has(parts[1]))
          this.fail(Messages.expectedButFound, op, ['a cmp instruction (cmp.eq, …)', op.text]);
        const operands = this.operands();
        this.expect(':');
        return done({ op: 'cmp', fn: parts[1], operands, type: this.typed() });
      }
      case 'cast': {
        const operand = this.operand();
        this.expect(':');
        const from = this.typed();
        this.expect('->');
        return done({ op: 'cast', operand, from, to: this.typed() });
      }
      case 'expand': {
        const operand = this.operand();
        this.expect('[');
        const mode = this.int('a mode').value;
        this.expect('->');
        const shape: Operand[] = [];
        const shapeDynamic: boolean[] = [];
        for (;;) {
          if (this.is('?')) {
            const q = this.next();
            shape.push({ kind: 'int', value: -1n, span: q.span });
            shapeDynamic.push(true);
          } else {
            shape.push(this.operand());
            shapeDynamic.push(false);
          }
          if (!this.accept('x')) break;
        }
        this.expect(']');
        this.expect(':');
        return done({ op: 'expand', operand, mode, shape, shapeDynamic, type: this.typed() });
      }
      case 'fuse': {
        const operand = this.operand();
        this.expect('[');
        const from = this.int('a mode').value;
        this.expect(',');
        const to = this.int('a mode').value;
        this.expect(']');
        this.expect(':');
        return done({ op: 'fuse', operand, from, to, type: this.typed() });
      }
      case 'load': {
        const operand = this.operand();
        const indices = this.indexList();
        this.expect(':');
        return done({ op: 'load', operand, indices, type: this.typed() });
      }
      case 'store': {
        const value = this.operand();
        this.expect(',');
        const operand = this.operand();
        const indices = this.indexList();
        this.expect(':');
        return done({ op: 'store', value, operand, indices, type: this.typed() });
      }
      case 'size': {
        const operand = this.operand();
        this.expect('[');
        const mode = this.int('a mode').value;
        this.expect(']');
        this.expect(':');
        return done({ op: 'size', operand, mode, type: this.typed() });
      }
      case 'subview': {
        const operand = this.operand();
        this.expect('[');
        const slices: Slice[] = [];
        for (;;) {
          if (this.is(':') && (this.is(',', 1) || this.is(']', 1))) {
            this.next();
            slices.push({ kind: 'all' });
          } else {
            const o = this.operand();
            if (this.accept(':')) {
              if (this.accept('?')) slices.push({ kind: 'range', offset: o, size: null });
              else slices.push({ kind: 'range', offset: o, size: this.operand() });
            } else slices.push({ kind: 'index', index: o });
          }
          if (!this.accept(',')) break;
        }
        this.expect(']');
        this.expect(':');
        return done({ op: 'subview', operand, slices, type: this.typed() });
      }
      case 'group_id':
      case 'group_size':
        return done({ op: head });
      case 'if': {
        const condition = this.operand();
        const resultTypes: TypedSpan[] = this.accept('->') ? this.typeList() : [];
        const then = this.region();
        const elseRegion = this.accept('else') ? this.region() : null;
        return done({ op: 'if', condition, resultTypes, then, else: elseRegion });
      }
      case 'yield': {
        const operands: Operand[] = [];
        const types: TypedSpan[] = [];
        if (
          this.peek().kind === 'local' ||
          this.peek().kind === 'int' ||
          this.peek().kind === 'float' ||
          this.is('true') ||
          this.is('false')
        ) {
          operands.push(...this.operands());
          this.expect(':');
          types.push(...this.list(() => this.typed()));
        }
        return done({ op: 'yield', operands, types });
      }
      case 'for':
      case 'foreach': {
        const v = this.next();
        if (v.kind !== 'local') this.fail(Messages.expectedButFound, v, ["a loop variable '%name'", v.text]);
        this.expect('=');
        const from = this.operand();
        this.expect(',');
        const to = this.operand();
        let step: Operand | null = null;
        if (head === 'for' && this.accept(',')) step = this.operand();
        const loopType = this.accept(':') ? this.typed() : null;
        const body = this.region();
        return done({ op: head, variable: { name: v.text, span: v.span }, from, to, step, loopType, body });
      }
    }
    if (BLAS.has(head)) {
      const flags = parts.slice(1);
      const atomic = flags[flags.length - 1] === 'atomic';
      if (atomic) flags.pop();
      const nTrans = head === 'gemm' ? 2 : head === 'axpby' || head === 'sum' || head === 'gemv' ? 1 : 0;
      if (flags.length !== nTrans || flags.some((f) => f !== 'n' && f !== 't')) {
        const want = `${head}${'.{n|t}'.repeat(nTrans)}[.atomic]`;
        this.fail(Messages.expectedButFound, op, [want, op.text]);
      }
      const operands = this.operands();
      this.expect(':');
      const types = this.list(() => this.typed());
      return done({
        op: 'blas',
        fn: head as 'gemm',
        transA: (flags[0] as 'n' | 't') ?? null,
        transB: (flags[1] as 'n' | 't') ?? null,
        atomic,
        operands,
        types,
      });
    }
    return this.fail(Messages.expectedButFound, op, ['an instruction', op.text]);
  }
}
