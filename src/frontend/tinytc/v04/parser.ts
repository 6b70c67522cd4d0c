import { Messages } from '../../../diagnostics/messages.js';
import { joinSpans } from '../../../diagnostics/source.js';
import { type Dim, I32_MAX, canonicalStride } from '../ast.js';
import {
  type Func04,
  type Inst04,
  MATRIX_USES,
  type MatrixUse,
  type Memref04,
  NUMBER_TYPES,
  type Name,
  type NumberType,
  type Operand04,
  type Param04,
  type Program04,
  type Region04,
  type Type04,
  type Typed,
  type ValueRef,
} from './ast.js';
import { MATRIX_OPS, instructionKind } from './instructions.js';
import { ParserBase04 } from './parser-base.js';

/**
 * Recursive-descent parser for tinytc v0.4 (the grammar of src/parser/parser_impl.yy at v0.4.0):
 * `$` definitions and `!calc(...)` evaluated as tinytc's parser does, while reading (parser-base.ts).
 */
export class IrParser04 extends ParserBase04 {
  parse(): Program04 {
    const funcs: Func04[] = [];
    this.topLevel(() => {
      if (this.peek().kind === 'def') this.defAssign();
      else funcs.push(this.func());
    });
    return { funcs };
  }

  private func(): Func04 {
    const kw = this.expect('func');
    const nameTok = this.next();
    if (nameTok.kind !== 'global') this.found(nameTok, "a function name '@name'");
    this.expect('(');
    const params = this.list((): Param04 => {
      const p = this.next();
      if (p.kind !== 'local') this.found(p, "a parameter '%name'");
      this.expect(':');
      const { type, span: typeSpan } = this.typed();
      const attrs = this.is('{') || this.peek().kind === 'def' ? this.dict() : null;
      return { name: p.text, span: p.span, type, typeSpan, attrs };
    }, ')');
    this.expect(')');
    const attrs = this.accept('attributes') ? this.dict() : null;
    let workGroupSize: [number, number] | null = null;
    let subgroupSize: number | null = null;
    if (attrs?.kind === 'dict') {
      const wg = attrs.entries.get('work_group_size');
      if (wg) {
        if (
          wg.kind !== 'array' ||
          wg.items.length !== 2 ||
          wg.items.some((x) => x.kind !== 'int' || x.value <= 0 || x.value > I32_MAX)
        )
          this.fail(Messages.badAttributeArgs, wg.span, [
            'work_group_size',
            `must be an array of 2 positive integers of i32 (at most ${I32_MAX})`,
          ]);
        workGroupSize = [(wg.items[0] as { value: number }).value, (wg.items[1] as { value: number }).value];
      }
      const sg = attrs.entries.get('subgroup_size');
      if (sg) {
        if (sg.kind !== 'int' || sg.value <= 0 || sg.value > I32_MAX)
          this.fail(Messages.badAttributeArgs, sg.span, [
            'subgroup_size',
            `must be a positive integer of i32 (at most ${I32_MAX})`,
          ]);
        subgroupSize = sg.value;
      }
    }
    const body = this.region();
    return {
      name: nameTok.text,
      span: joinSpans(kw.span, nameTok.span),
      params,
      attrs,
      workGroupSize,
      subgroupSize,
      body,
    };
  }

  private region(): Region04 {
    return this.regionOf<Inst04>((body) => {
      if (this.peek().kind === 'def') this.defAssign();
      else body.push(this.inst());
    });
  }

  private dim(): Dim {
    if (this.accept('?')) return null;
    const d = this.int("an extent or '?'");
    if (d.value < 0)
      this.fail(Messages.irTypeSyntax, d.span, [`a static extent or stride must not be negative, not ${d.value}`]);
    return d.value;
  }

  private memrefType(): Memref04 {
    this.expect('memref');
    this.expect('<');
    const elementTok = this.peek();
    const element = this.type();
    if (element.kind !== 'number')
      this.fail(Messages.irTypeSyntax, this.spanFrom(elementTok), ['a memref element must be a number type']);
    const shape: Dim[] = [];
    while (this.accept('x')) shape.push(this.dim());
    let stride: Dim[] = canonicalStride(shape);
    let explicitStride = false;
    let space: 'global' | 'local' = 'global';
    if (this.accept(',')) {
      if (this.is('strided')) {
        stride = this.strideList(this.next(), shape.length, () => this.dim());
        explicitStride = true;
        if (this.accept(',')) space = this.addressSpace();
      } else space = this.addressSpace();
    }
    this.expect('>');
    return { kind: 'memref', element: element.name, shape, stride, explicitStride, space };
  }

  private addressSpace(): 'global' | 'local' {
    const t = this.next();
    return t.text === 'global' || t.text === 'local' ? t.text : this.found(t, "'strided', 'global' or 'local'");
  }

  type(): Type04 {
    const t = this.peek();
    if (t.kind === 'def') {
      this.next();
      const d = this.def(t);
      return d.kind === 'type' ? d.type : this.fail(Messages.ir04DefKind, t, [t.text, 'a type']);
    }
    if (t.kind === 'word' && (NUMBER_TYPES as readonly string[]).includes(t.text))
      return { kind: 'number', name: this.next().text as NumberType };
    if (this.accept('bool')) return { kind: 'bool' };
    if (this.is('memref')) return this.memrefType();
    if (this.accept('group')) {
      this.expect('<');
      const mt = this.peek();
      const m = this.type();
      if (m.kind !== 'memref') this.fail(Messages.irTypeSyntax, this.spanFrom(mt), ['a group holds memrefs']);
      this.expect('x');
      const size = this.dim();
      const offset = this.groupOffset(() => this.dim());
      this.expect('>');
      return { kind: 'group', memref: m, size, offset };
    }
    if (this.accept('coopmatrix')) {
      this.expect('<');
      const ct = this.peek();
      const c = this.type();
      if (c.kind !== 'number')
        this.fail(Messages.irTypeSyntax, this.spanFrom(ct), ['a coopmatrix component must be a number type']);
      this.expect('x');
      const rows = this.int('a row count');
      this.expect('x');
      const cols = this.int('a column count');
      this.expect(',');
      const u = this.next();
      if (!(MATRIX_USES as readonly string[]).includes(u.text)) this.found(u, 'matrix_a, matrix_b or matrix_acc');
      this.expect('>');
      if (rows.value <= 0 || cols.value <= 0)
        this.fail(Messages.irTypeSyntax, this.spanFrom(t), ['a coopmatrix shape must be positive']);
      return { kind: 'coopmatrix', component: c.name, rows: rows.value, cols: cols.value, use: u.text as MatrixUse };
    }
    return this.found(t, 'a type');
  }

  private value(): ValueRef {
    const t = this.next();
    return t.kind === 'local' ? { kind: 'value', name: t.text, span: t.span } : this.found(t, "a value '%name'");
  }
  private values(close: string): ValueRef[] {
    return this.list(() => this.value(), close);
  }
  private intOrValue(): Operand04 {
    if (this.peek().kind === 'local') return this.value();
    const { value, span } = this.int("an integer or a value '%name'");
    return { kind: 'int', value, span };
  }
  private names(): Name[] {
    return this.list(() => {
      const t = this.next();
      return t.kind === 'local' ? { name: t.text, span: t.span } : this.found(t, "a name '%name'");
    });
  }
  private flags(): string[] {
    const out: string[] = [];
    while (this.peek().kind === 'flag') out.push(this.next().text);
    return out;
  }
  private colonType(): Typed {
    this.expect(':');
    return this.typed();
  }

  private inst(): Inst04 {
    const start = this.peek();
    const results = start.kind === 'local' ? this.names() : [];
    if (results.length) this.expect('=');
    const opTok = this.next();
    if (opTok.kind !== 'word') this.found(opTok, 'an instruction');
    const op = opTok.text;
    const kind = instructionKind(op);
    if (!kind) this.fail(Messages.ir04UnknownInstruction, opTok, [op]);
    const flags = this.flags();
    const done = <T extends object>(x: T): Inst04 =>
      ({ op, flags, results, span: this.spanFrom(start), ...x }) as unknown as Inst04;
    switch (kind) {
      case 'binary': {
        const a = this.value();
        this.expect(',');
        const b = this.value();
        return done({ form: 'binary', a, b, type: this.colonType() });
      }
      case 'unary':
        return done({ form: 'unary', a: this.value(), type: this.colonType() });
      case 'builtin':
        return done({ form: 'builtin', type: this.colonType() });
      case 'constant': {
        const { literal, span } = this.literal();
        return done({ form: 'constant', literal, literalSpan: span, type: this.colonType() });
      }
      case 'alloca': {
        const attrs = this.is('{') || this.peek().kind === 'def' ? this.dict() : null;
        return done({ form: 'alloca', attrs, type: this.colonType() });
      }
      case 'load': {
        const operand = this.value();
        this.expect('[');
        const indices = this.values(']');
        this.expect(']');
        return done({ form: 'load', operand, indices, type: this.colonType() });
      }
      case 'store': {
        const value = this.value();
        this.expect(',');
        const operand = this.value();
        this.expect('[');
        const indices = this.values(']');
        this.expect(']');
        // atomic_add/max/min return the old value: they carry its type.
        const type = op === 'store' || op === 'atomic_store' ? null : this.colonType();
        return done({ form: 'store', value, operand, indices, type });
      }
      case 'size': {
        const operand = this.value();
        this.expect('[');
        const mode = this.int('a mode').value;
        this.expect(']');
        return done({ form: 'size', operand, mode, type: this.colonType() });
      }
      case 'subview': {
        const operand = this.value();
        this.expect('[');
        const slices = this.list(() => {
          const offset = this.intOrValue();
          return { offset, size: this.accept(':') ? this.intOrValue() : null };
        }, ']');
        this.expect(']');
        return done({ form: 'subview', operand, slices, type: this.colonType() });
      }
      case 'expand': {
        const operand = this.value();
        this.expect('[');
        const mode = this.int('a mode').value;
        this.expect('->');
        const shape = [this.intOrValue()];
        while (this.accept('x')) shape.push(this.intOrValue());
        this.expect(']');
        return done({ form: 'expand', operand, mode, shape, type: this.colonType() });
      }
      case 'fuse': {
        const operand = this.value();
        this.expect('[');
        const from = this.int('a mode').value;
        this.expect(',');
        const to = this.int('a mode').value;
        this.expect(']');
        return done({ form: 'fuse', operand, from, to, type: this.colonType() });
      }
      case 'blas': {
        const operands = [this.value()];
        let mode: number | null = null;
        this.expect(',');
        operands.push(this.value());
        if (op === 'cumsum') {
          this.expect(',');
          mode = this.int('a mode').value;
        }
        while (this.accept(',')) operands.push(this.value());
        return done({ form: 'blas', operands, mode });
      }
      case 'barrier':
        return done({ form: 'barrier' });
      case 'if': {
        const condition = this.value();
        const resultTypes = this.accept('->') ? this.typeList() : [];
        const then = this.region();
        const elseRegion = this.accept('else') ? this.region() : null;
        return done({ form: 'if', condition, resultTypes, then, else: elseRegion });
      }
      case 'for': {
        const v = this.next();
        if (v.kind !== 'local') this.found(v, "a loop variable '%name'");
        this.expect('=');
        const from = this.value();
        this.expect(',');
        const to = this.value();
        const step = this.accept(',') ? this.value() : null;
        const init: { name: Name; value: ValueRef }[] = [];
        let resultTypes: Typed[] = [];
        if (this.accept('init')) {
          this.expect('(');
          do {
            const n = this.names();
            if (n.length !== 1) this.found(this.peek(), "'='");
            this.expect('=');
            init.push({ name: n[0], value: this.value() });
          } while (this.accept(','));
          this.expect(')');
          this.expect('->');
          resultTypes = this.typeList();
        }
        const body = this.region();
        const attrs = this.accept('attributes') ? this.dict() : null;
        return done({
          form: 'for',
          variable: { name: v.text, span: v.span },
          from,
          to,
          step,
          init,
          resultTypes,
          body,
          attrs,
        });
      }
      case 'foreach': {
        this.expect('(');
        const variables = this.names();
        this.expect(')');
        this.expect('=');
        this.expect('(');
        const from = this.values(')');
        this.expect(')');
        this.expect(',');
        this.expect('(');
        const to = this.values(')');
        this.expect(')');
        let tile: { sizes: Name[]; shape: number[] } | null = null;
        if (op === 'foreach_tile') {
          this.expect('as');
          this.expect('(');
          const sizes = this.names();
          this.expect(')');
          this.expect('<=');
          this.expect('(');
          const shape = this.list(() => this.int('a tile extent').value);
          this.expect(')');
          tile = { sizes, shape };
        }
        return done({ form: 'foreach', variables, from, to, tile, body: this.region() });
      }
      case 'parallel':
        return done({ form: 'parallel', body: this.region() });
      case 'yield': {
        this.expect('(');
        const values = this.values(')');
        this.expect(')');
        return done({ form: 'yield', values });
      }
      case 'matrix':
        return this.matrix(op, done);
    }
  }

  /** The cooperative-matrix instructions: each one's operand list as the grammar spells it. */
  private matrix(op: string, done: (x: object) => Inst04): Inst04 {
    const shape = MATRIX_OPS[op as keyof typeof MATRIX_OPS];
    const values: ValueRef[] = [];
    const ints: number[] = [];
    let apply: { names: Name[]; body: Region04 } | null = null;
    if (shape === 'apply') {
      this.expect('(');
      const names = this.names();
      this.expect(')');
      this.expect('=');
      values.push(this.value());
      this.expect('->');
      const type = this.typed();
      apply = { names, body: this.region() };
      return done({ form: 'matrix', values, ints, type, apply });
    }
    if (shape === 'prefetch') {
      ints.push(this.int('a cache level').value);
      this.expect(',');
    }
    // `[val ,] op [p0, p1]` for loads and stores; plain value lists for the rest.
    if (shape === 'load' || shape === 'store' || shape === 'update' || shape === 'prefetch') {
      if (shape === 'store' || shape === 'update') {
        values.push(this.value());
        this.expect(',');
      }
      values.push(this.value());
      this.expect('[');
      values.push(this.value());
      this.expect(',');
      values.push(this.value());
      this.expect(']');
      if (shape === 'prefetch') {
        this.expect(',');
        ints.push(this.int('a row count').value);
        this.expect(',');
        ints.push(this.int('a column count').value);
      }
    } else {
      if (shape === 'insert') {
        values.push(this.value());
        this.expect(',');
      }
      values.push(this.value());
      if (shape === 'extract' || shape === 'insert') {
        this.expect('[');
        ints.push(this.int('an index').value);
        this.expect(']');
      } else while (this.accept(',')) values.push(this.value());
    }
    const type = shape === 'store' || shape === 'prefetch' ? null : this.colonType();
    return done({ form: 'matrix', values, ints, type, apply });
  }
}
