import type { DiagnosticBag } from '../../diagnostics/diagnostic.js';
import { type Message, Messages } from '../../diagnostics/messages.js';
import { type Span, joinSpans } from '../../diagnostics/source.js';
import {
  type Dim,
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
import type { IrToken } from './lexer.js';
import { parseFloatLiteral } from '../opencl-c/literals.js';

class Bail extends Error {}

const BLAS = new Set(['axpby', 'sum', 'gemm', 'gemv', 'ger', 'hadamard']);
const ARITH = new Set(['add', 'sub', 'mul', 'div', 'rem', 'shl', 'shr', 'and', 'or', 'xor', 'neg', 'not']);
const CMP = new Set(['eq', 'ne', 'gt', 'ge', 'lt', 'le']);
const MAX_DEPTH = 200;

/** Recursive-descent parser for tinytc v0.3 IR. */
export class IrParser {
  private pos = 0;
  private depth = 0;

  constructor(
    private readonly toks: IrToken[],
    private readonly diags: DiagnosticBag,
  ) {}

  private peek(k = 0): IrToken {
    return this.toks[Math.min(this.pos + k, this.toks.length - 1)];
  }
  private next(): IrToken {
    const t = this.peek();
    if (t.kind !== 'eof') this.pos++;
    return t;
  }
  private is(text: string, k = 0): boolean {
    const t = this.peek(k);
    return (t.kind === 'punct' || t.kind === 'word') && t.text === text;
  }
  private accept(text: string): IrToken | undefined {
    return this.is(text) ? this.next() : undefined;
  }
  private fail(msg: Message, at: IrToken | Span, args: (string | number)[] = []): never {
    this.diags.report(msg, 'kind' in at ? at.span : at, args);
    throw new Bail();
  }
  private expect(text: string): IrToken {
    if (this.is(text)) return this.next();
    const t = this.peek();
    if (t.kind === 'eof') this.fail(Messages.unexpectedEof, t, [`'${text}'`]);
    return this.fail(Messages.expectedButFound, t, [`'${text}'`, t.text]);
  }
  private spanFrom(start: IrToken): Span {
    return joinSpans(start.span, this.toks[Math.max(0, this.pos - 1)].span);
  }

  parse(): Program {
    const funcs: Func[] = [];
    while (this.peek().kind !== 'eof') {
      const start = this.pos;
      try {
        funcs.push(this.func());
      } catch (e) {
        if (!(e instanceof Bail)) throw e;
        this.depth = 0;
        // Skip to the next `func`.
        if (this.pos === start) this.next();
        while (this.peek().kind !== 'eof' && !this.is('func')) this.next();
      }
    }
    return { funcs };
  }

  private int(what: string): { value: number; token: IrToken } {
    const t = this.next();
    if (t.kind !== 'int' || !/^[-+]?\d+$/.test(t.text)) this.fail(Messages.expectedButFound, t, [what, t.text]);
    const v = Number(t.text);
    if (!Number.isSafeInteger(v)) this.fail(Messages.irNumberOutOfRange, t, [t.text]);
    return { value: v, token: t };
  }

  private func(): Func {
    const kw = this.expect('func');
    const nameTok = this.next();
    if (nameTok.kind !== 'global')
      this.fail(Messages.expectedButFound, nameTok, ["a function name '@name'", nameTok.text]);
    this.expect('(');
    const params: Param[] = [];
    if (!this.is(')')) {
      for (;;) {
        const p = this.next();
        if (p.kind !== 'local') this.fail(Messages.expectedButFound, p, ["a parameter '%name'", p.text]);
        this.expect(':');
        const ts = this.peek();
        const type = this.type();
        params.push({ name: p.text, span: p.span, type, typeSpan: this.spanFrom(ts) });
        if (!this.accept(',')) break;
      }
    }
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
        workGroupSize = [m.value, n.value];
        attrSpan = this.spanFrom(a);
      } else if (this.is('subgroup_size')) {
        const a = this.next();
        this.expect('(');
        const s = this.int('an integer');
        this.expect(')');
        if (s.value <= 0) this.fail(Messages.badAttributeArgs, this.spanFrom(a), ['subgroup_size', 'must be positive']);
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
    const open = this.expect('{');
    if (++this.depth > MAX_DEPTH) this.fail(Messages.tooDeep, open, [MAX_DEPTH]);
    const body: Inst[] = [];
    while (!this.is('}')) {
      if (this.peek().kind === 'eof') this.fail(Messages.unmatchedBrace, open);
      body.push(this.inst());
    }
    this.expect('}');
    this.depth--;
    return { body, span: this.spanFrom(open) };
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
      const s = this.expect('strided');
      this.expect('<');
      const list: Dim[] = [];
      if (!this.is('>')) {
        for (;;) {
          const d = this.dim();
          if (d.dim !== null && d.dim < 0)
            this.fail(Messages.irTypeSyntax, d.token, [`a stride must not be negative, not ${d.dim}`]);
          list.push(d.dim);
          if (!this.accept(',')) break;
        }
      }
      this.expect('>');
      if (list.length !== shape.length)
        this.fail(Messages.irTypeSyntax, this.spanFrom(s), [
          `shape and stride list must have the same length (${shape.length} extents, ${list.length} strides)`,
        ]);
      stride = list;
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
      let offset: Dim = 0;
      if (this.accept(',')) {
        this.expect('offset');
        this.expect(':');
        const d = this.dim();
        if (d.dim !== null && d.dim < 0)
          this.fail(Messages.irTypeSyntax, d.token, [`a group offset must not be negative, not ${d.dim}`]);
        offset = d.dim;
      }
      this.expect('>');
      return { kind: 'group', memref, offset };
    }
    if (t.kind === 'eof') this.fail(Messages.unexpectedEof, t, ['a type']);
    return this.fail(Messages.expectedButFound, t, ['a type', t.text]);
  }

  private typed(): TypedSpan {
    const start = this.peek();
    const type = this.type();
    return { type, span: this.spanFrom(start) };
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
    const out = [this.operand()];
    while (this.accept(',')) out.push(this.operand());
    return out;
  }

  private indexList(): Operand[] {
    this.expect('[');
    const out: Operand[] = [];
    if (!this.is(']')) out.push(...this.operands());
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
        const resultTypes: TypedSpan[] = [];
        if (this.accept('->')) {
          this.expect('(');
          if (!this.is(')')) {
            for (;;) {
              resultTypes.push(this.typed());
              if (!this.accept(',')) break;
            }
          }
          this.expect(')');
        }
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
          for (;;) {
            types.push(this.typed());
            if (!this.accept(',')) break;
          }
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
      const types: TypedSpan[] = [];
      for (;;) {
        types.push(this.typed());
        if (!this.accept(',')) break;
      }
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
