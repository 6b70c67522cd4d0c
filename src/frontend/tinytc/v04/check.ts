import { assertNever } from '../../../assert-never.js';
import type { DiagnosticBag } from '../../../diagnostics/diagnostic.js';
import { Messages } from '../../../diagnostics/messages.js';
import type { Span } from '../../../diagnostics/source.js';
import { kernelName, varName } from '../calling-convention.js';
import { BUILTIN_PREFIX, isReservedCName } from '../reserved-names.js';
import type { Dim } from '../ast.js';
import {
  type Func04,
  type Inst04,
  type Memref04,
  NUMBER_CLASS,
  type NumberType,
  type Program04,
  type Region04,
  type Type04,
  type ValueRef,
  type04Text,
} from './ast.js';
import { COMPARE, placement } from './instructions.js';
import { viewType } from './views.js';

const INDEX: Type04 = { kind: 'number', name: 'index' };
const BOOL: Type04 = { kind: 'bool' };
const I32: Type04 = { kind: 'number', name: 'i32' };

export function sameType04(a: Type04, b: Type04): boolean {
  return type04Text(a) === type04Text(b);
}

/** The value types of one function, by name (a name is defined once per function). */
export type ValueTypes04 = ReadonlyMap<string, Type04>;

const isInt = (t: Type04): boolean => t.kind === 'number' && NUMBER_CLASS[t.name] === 'int';
const component = (t: Type04): NumberType | null =>
  t.kind === 'number' ? t.name : t.kind === 'coopmatrix' ? t.component : null;
const INT_ONLY = new Set(['shl', 'shr', 'and', 'or', 'xor', 'not']);
const NO_COMPLEX = new Set(['rem', 'min', 'max', ...INT_ONLY]);

/**
 * Checks a v0.4 program as tinytc's check-ir pass and its instruction constructors do: values
 * defined once and before use, operand and annotated types, SPMD and collective placement, yields
 * of loop-carried and if values, casts, memref views and BLAS shapes.
 */
export function checkProgram04(program: Program04, diags: DiagnosticBag): Map<Func04, ValueTypes04> {
  const out = new Map<Func04, ValueTypes04>();
  const seen = new Map<string, Func04>();
  for (const f of program.funcs) {
    const prev = seen.get(kernelName(f.name));
    if (prev && prev.name === f.name)
      diags.report(Messages.irDuplicateFunc, f.span, [f.name], [{ message: 'first defined here', span: prev.span }]);
    else if (prev)
      diags.report(
        Messages.irKernelNameClash,
        f.span,
        [f.name, kernelName(f.name), prev.name],
        [{ message: 'defined here', span: prev.span }],
      );
    else seen.set(kernelName(f.name), f);
    out.set(f, new FuncChecker04(f, diags).run());
  }
  return out;
}

/** What a `yield` in the region being checked must give (null: no yield allowed). */
type YieldContext = readonly Type04[] | null;

class FuncChecker04 {
  private readonly scopes: Map<string, Type04>[] = [new Map()];
  private readonly defined = new Map<string, Span>();
  private readonly types = new Map<string, Type04>();
  private spmd = 0;

  constructor(
    private readonly f: Func04,
    private readonly diags: DiagnosticBag,
  ) {}

  run(): ValueTypes04 {
    const kernel = kernelName(this.f.name);
    if (isReservedCName(kernel) || BUILTIN_PREFIX.test(kernel))
      this.diags.report(Messages.irReservedName, this.f.span, [`@${this.f.name}`, kernel]);
    for (const p of this.f.params) {
      const c = varName(p.name);
      if (isReservedCName(c) || BUILTIN_PREFIX.test(c))
        this.diags.report(Messages.irReservedName, p.span, [`%${p.name}`, c]);
      // tinytc takes bool parameters (its own tests have them); a coopmatrix has no argument form.
      if (p.type.kind === 'coopmatrix' || p.type.kind === 'void')
        this.diags.report(Messages.ir04ParamType, p.span, [p.name, type04Text(p.type)]);
      this.define(p.name, p.span, p.type);
    }
    this.region(this.f.body, null);
    return this.types;
  }

  private define(name: string, span: Span, type: Type04): void {
    if (this.lookup(name))
      this.diags.report(
        Messages.irRedefined,
        span,
        [name],
        [{ message: 'first defined here', span: this.defined.get(name)! }],
      );
    this.defined.set(name, span);
    this.types.set(name, type);
    this.scopes[this.scopes.length - 1].set(name, type);
  }

  private lookup(name: string): Type04 | undefined {
    for (let i = this.scopes.length - 1; i >= 0; i--) {
      const t = this.scopes[i].get(name);
      if (t) return t;
    }
    return undefined;
  }

  /** The value's type; reports an undefined value, and a type other than `expected`. */
  private use(v: ValueRef, expected: Type04 | null, what: string): Type04 | undefined {
    const t = this.lookup(v.name);
    if (!t) {
      this.diags.report(Messages.irUndefined, v.span, [v.name]);
      return undefined;
    }
    if (expected && !sameType04(t, expected))
      this.diags.report(Messages.irTypeMismatch, v.span, [
        `%${v.name} has type ${type04Text(t)}, but ${what} needs ${type04Text(expected)}`,
      ]);
    return t;
  }

  private results(inst: Inst04, types: readonly Type04[]): void {
    if (inst.results.length !== types.length)
      this.diags.report(Messages.irResultCount, inst.span, [inst.op, inst.results.length, types.length]);
    inst.results.forEach((r, i) => this.define(r.name, r.span, types[i] ?? { kind: 'void' }));
  }

  private region(
    r: Region04,
    yields: YieldContext,
    vars: readonly { name: string; span: Span; type: Type04 }[] = [],
  ): void {
    this.scopes.push(new Map());
    for (const v of vars) this.define(v.name, v.span, v.type);
    r.body.forEach((inst, i) => {
      if (inst.form === 'yield' && i !== r.body.length - 1) this.diags.report(Messages.irYieldNotLast, inst.span);
      this.inst(inst, yields);
    });
    if (yields && yields.length > 0 && r.body[r.body.length - 1]?.form !== 'yield')
      this.diags.report(Messages.irIfRegionNeedsYield, r.span, [yields.length]);
    this.scopes.pop();
  }

  private memrefOf(v: ValueRef, what: string): Memref04 | undefined {
    const t = this.use(v, null, what);
    if (!t || t.kind === 'memref') return t;
    this.diags.report(Messages.irTypeMismatch, v.span, [`${what} needs a memref, not ${type04Text(t)}`]);
    return undefined;
  }

  private indices(ix: readonly ValueRef[], rank: number, span: Span, what: string): void {
    if (ix.length !== rank)
      this.diags.report(Messages.irOperandCount, span, [what, `${rank} indices for this operand, not ${ix.length}`]);
    for (const i of ix) this.use(i, INDEX, 'an index');
  }

  /** The annotated result type must be the type the instruction gives. */
  private gives(inst: Inst04 & { type: { type: Type04; span: Span } | null }, given: Type04 | undefined): Type04 {
    const annotated = inst.type?.type ?? { kind: 'void' as const };
    if (given && !sameType04(given, annotated))
      this.diags.report(Messages.ir04ResultType, inst.span, [inst.op, type04Text(given), type04Text(annotated)]);
    return annotated;
  }

  private inst(inst: Inst04, yields: YieldContext): void {
    const where = placement(inst.op);
    if (where === 'collective' && this.spmd > 0) this.diags.report(Messages.ir04CollectiveInSpmd, inst.span, [inst.op]);
    if (where === 'spmd' && this.spmd === 0) this.diags.report(Messages.ir04SpmdOutside, inst.span, [inst.op]);
    switch (inst.form) {
      case 'binary': {
        const a = this.use(inst.a, null, inst.op);
        if (inst.op === 'subgroup_broadcast') {
          this.use(inst.b, I32, 'the subgroup_broadcast index');
          return this.results(inst, [this.gives(inst, a)]);
        }
        const b = this.use(inst.b, a ?? null, inst.op);
        const compare = (COMPARE as readonly string[]).includes(inst.op);
        const operandType = a ?? b;
        if (operandType) this.supports(inst, operandType);
        if (compare) return this.results(inst, [this.gives(inst, BOOL)]);
        return this.results(inst, [this.gives(inst, operandType)]);
      }
      case 'unary':
        return this.results(inst, [this.unary(inst)]);
      case 'builtin': {
        const ty = inst.type.type;
        if (!isInt(ty))
          this.diags.report(Messages.irTypeMismatch, inst.type.span, [
            `${inst.op} gives an integer, not ${type04Text(ty)}`,
          ]);
        return this.results(inst, [ty]);
      }
      case 'constant':
        this.constant(inst);
        return this.results(inst, [inst.type.type]);
      case 'alloca': {
        const t = inst.type.type;
        if (t.kind !== 'memref' || t.space !== 'local')
          this.diags.report(Messages.irTypeMismatch, inst.type.span, [
            `alloca makes a memref in local memory, not ${type04Text(t)}`,
          ]);
        else if (t.shape.some((d) => d === null) || t.stride.some((d) => d === null))
          this.diags.report(Messages.irTypeMismatch, inst.type.span, ['alloca needs a static shape and stride']);
        return this.results(inst, [t]);
      }
      case 'load': {
        const t = this.use(inst.operand, null, inst.op);
        if (t?.kind === 'group') {
          this.indices(inst.indices, 1, inst.span, 'load from a group');
          return this.results(inst, [this.gives(inst, t.memref)]);
        }
        if (t && t.kind !== 'memref')
          this.diags.report(Messages.irTypeMismatch, inst.operand.span, [
            `${inst.op} needs a memref or a group, not ${type04Text(t)}`,
          ]);
        if (t?.kind === 'memref') this.indices(inst.indices, t.shape.length, inst.span, inst.op);
        return this.results(inst, [
          this.gives(inst, t?.kind === 'memref' ? { kind: 'number', name: t.element } : undefined),
        ]);
      }
      case 'store': {
        const m = this.memrefOf(inst.operand, inst.op);
        this.use(inst.value, m ? { kind: 'number', name: m.element } : null, `the value ${inst.op} writes`);
        if (m) this.indices(inst.indices, m.shape.length, inst.span, inst.op);
        if (inst.type)
          return this.results(inst, [this.gives(inst, m ? { kind: 'number', name: m.element } : undefined)]);
        return this.results(inst, []);
      }
      case 'size': {
        const t = this.use(inst.operand, null, 'size');
        const m = t?.kind === 'group' ? null : t?.kind === 'memref' ? t : undefined;
        if (t && m === undefined)
          this.diags.report(Messages.irTypeMismatch, inst.operand.span, [
            `size needs a memref or a group, not ${type04Text(t)}`,
          ]);
        if (m && (inst.mode < 0 || inst.mode >= m.shape.length))
          this.diags.report(Messages.irBadMode, inst.span, [inst.mode, m.shape.length]);
        if (!isInt(inst.type.type))
          this.diags.report(Messages.irTypeMismatch, inst.type.span, [
            `size gives an integer, not ${type04Text(inst.type.type)}`,
          ]);
        return this.results(inst, [inst.type.type]);
      }
      case 'subview':
      case 'expand':
      case 'fuse': {
        const m = this.memrefOf(inst.operand, inst.op);
        for (const o of inst.form === 'subview'
          ? inst.slices.flatMap((s) => (s.size ? [s.offset, s.size] : [s.offset]))
          : inst.form === 'expand'
            ? inst.shape
            : [])
          if (o.kind === 'value') this.use(o, INDEX, `a ${inst.op} operand`);
        if (m) {
          const r = viewType(inst, m);
          if (typeof r === 'string') this.diags.report(Messages.irShapeMismatch, inst.span, [inst.op, r]);
          else if (!fits(r, inst.type.type))
            this.diags.report(Messages.ir04ResultType, inst.span, [inst.op, type04Text(r), type04Text(inst.type.type)]);
        }
        return this.results(inst, [inst.type.type]);
      }
      case 'blas':
        this.blas(inst);
        return this.results(inst, []);
      case 'barrier':
        return this.results(inst, []);
      case 'if': {
        this.use(inst.condition, BOOL, 'the if condition');
        const types = inst.resultTypes.map((t) => t.type);
        this.region(inst.then, types);
        if (inst.else) this.region(inst.else, types);
        else if (types.length)
          this.diags.report(Messages.irOperandCount, inst.span, ['if with results', 'an else region']);
        return this.results(inst, types);
      }
      case 'for': {
        const lt = this.use(inst.from, null, 'the loop start');
        if (lt && !isInt(lt))
          this.diags.report(Messages.irTypeMismatch, inst.from.span, [
            `a loop runs over an integer type, not ${type04Text(lt)}`,
          ]);
        this.use(inst.to, lt ?? null, 'the loop end');
        if (inst.step) this.use(inst.step, lt ?? null, 'the loop step');
        const types = inst.resultTypes.map((t) => t.type);
        if (inst.init.length !== types.length)
          this.diags.report(Messages.irOperandCount, inst.span, [
            'for',
            `as many init values as result types (${inst.init.length} vs ${types.length})`,
          ]);
        inst.init.forEach((x, i) => this.use(x.value, types[i] ?? null, 'an init value'));
        this.region(inst.body, types, [
          { name: inst.variable.name, span: inst.variable.span, type: lt ?? INDEX },
          ...inst.init.map((x, i) => ({
            name: x.name.name,
            span: x.name.span,
            type: types[i] ?? { kind: 'void' as const },
          })),
        ]);
        return this.results(inst, types);
      }
      case 'foreach': {
        const n = inst.variables.length;
        if (inst.from.length !== n || inst.to.length !== n)
          this.diags.report(Messages.irOperandCount, inst.span, [inst.op, `${n} lower and ${n} upper bounds`]);
        if (inst.tile && (inst.tile.sizes.length !== n || inst.tile.shape.length !== n))
          this.diags.report(Messages.irOperandCount, inst.span, [inst.op, `${n} tile sizes and ${n} tile extents`]);
        const types = inst.from.map((v) => this.use(v, null, 'a loop start'));
        inst.to.forEach((v, i) => this.use(v, types[i] ?? null, 'a loop end'));
        const vars = [...inst.variables, ...(inst.tile?.sizes ?? [])].map((v, i) => ({
          name: v.name,
          span: v.span,
          type: types[i % n] ?? INDEX,
        }));
        this.spmd++;
        this.region(inst.body, null, vars);
        this.spmd--;
        return this.results(inst, []);
      }
      case 'parallel':
        this.spmd++;
        this.region(inst.body, null);
        this.spmd--;
        return this.results(inst, []);
      case 'yield': {
        if (!yields) {
          this.diags.report(Messages.ir04YieldOutside, inst.span);
          return;
        }
        if (inst.values.length !== yields.length)
          this.diags.report(Messages.irOperandCount, inst.span, ['yield', `${yields.length} value(s)`]);
        inst.values.forEach((v, i) => this.use(v, yields[i] ?? null, 'yield'));
        return;
      }
      case 'matrix': {
        for (const v of inst.values) this.use(v, null, inst.op);
        if (inst.apply) {
          const c = inst.type?.type;
          const comp: Type04 = c?.kind === 'coopmatrix' ? { kind: 'number', name: c.component } : { kind: 'void' };
          const [row, col, val] = inst.apply.names;
          if (inst.apply.names.length !== 3)
            this.diags.report(Messages.irOperandCount, inst.span, [inst.op, 'three names (row, column, value)']);
          this.spmd++;
          this.region(
            inst.apply.body,
            [comp],
            [row, col, val].filter(Boolean).map((n, i) => ({ name: n.name, span: n.span, type: i < 2 ? I32 : comp })),
          );
          this.spmd--;
        }
        return this.results(inst, inst.type ? [inst.type.type] : []);
      }
      default:
        assertNever(inst);
    }
  }

  /** Integer-only and complex-refusing instructions, as tinytc's `Floating point type unsupported by instruction`. */
  private supports(inst: Inst04, t: Type04): void {
    const c = component(t);
    const cls = c ? NUMBER_CLASS[c] : t.kind === 'bool' ? 'bool' : null;
    const bad =
      (INT_ONLY.has(inst.op) && cls !== 'int' && !(cls === 'bool' && inst.op !== 'shl' && inst.op !== 'shr')) ||
      (NO_COMPLEX.has(inst.op) && cls === 'complex');
    if (bad || cls === null) this.diags.report(Messages.ir04TypeUnsupported, inst.span, [inst.op, type04Text(t)]);
  }

  private unary(inst: Extract<Inst04, { form: 'unary' }>): Type04 {
    const ty = inst.type.type;
    if (inst.op === 'cast') {
      const a = this.use(inst.a, null, 'cast');
      const from = a && component(a);
      const to = component(ty);
      if (a && (!from || !to || (a.kind === 'coopmatrix') !== (ty.kind === 'coopmatrix')))
        this.diags.report(Messages.irTypeMismatch, inst.span, [
          `cast converts numbers (or coopmatrices), not ${type04Text(a)} to ${type04Text(ty)}`,
        ]);
      else if (from && to && NUMBER_CLASS[from] === 'complex' && NUMBER_CLASS[to] !== 'complex')
        this.diags.report(Messages.ir04ForbiddenCast, inst.span, [type04Text(a!), type04Text(ty)]);
      return ty;
    }
    if (inst.op === 'associated') {
      this.use(inst.a, null, 'associated');
      return this.gives(inst, BOOL);
    }
    if (inst.op === 'cooperative_matrix_construct') {
      this.use(inst.a, null, inst.op);
      if (ty.kind !== 'coopmatrix')
        this.diags.report(Messages.irTypeMismatch, inst.type.span, [
          `${inst.op} makes a coopmatrix, not ${type04Text(ty)}`,
        ]);
      return ty;
    }
    const a = this.use(inst.a, null, inst.op);
    if (!a) return ty;
    if (inst.op.startsWith('cooperative_matrix_reduce')) return ty;
    this.supports(inst, a);
    const c = component(a);
    if ((inst.op === 'im' || inst.op === 're' || inst.op === 'abs') && c && NUMBER_CLASS[c] === 'complex') {
      const real: Type04 = { kind: 'number', name: c === 'c32' ? 'f32' : 'f64' };
      return this.gives(inst, a.kind === 'coopmatrix' ? { ...a, component: real.name as NumberType } : real);
    }
    if (/^(native_)?(cos|sin|exp2?|log2?)$/.test(inst.op) && c && NUMBER_CLASS[c] === 'int')
      this.diags.report(Messages.ir04TypeUnsupported, inst.span, [inst.op, type04Text(a)]);
    return this.gives(inst, a);
  }

  private constant(inst: Extract<Inst04, { form: 'constant' }>): void {
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
      this.diags.report(Messages.irTypeMismatch, inst.literalSpan, [
        `a ${lit.kind} constant cannot have type ${type04Text(ty)}`,
      ]);
    if (ok && cls === 'int' && lit.kind === 'int' && c) {
      const bits = c === 'i8' ? 8 : c === 'i16' ? 16 : c === 'i32' ? 32 : 64;
      if (BigInt.asIntN(bits, lit.value) !== lit.value)
        this.diags.report(Messages.irImmediateRange, inst.literalSpan, [lit.value.toString(), c]);
    }
  }

  private blas(inst: Extract<Inst04, { form: 'blas' }>): void {
    const three = ['gemm', 'gemv', 'ger', 'hadamard'].includes(inst.op);
    const n = three ? 5 : 4;
    if (inst.operands.length !== n) {
      this.diags.report(Messages.irOperandCount, inst.span, [inst.op, `${n} operands`]);
      return;
    }
    const types = inst.operands.map((v) => this.use(v, null, inst.op));
    const scalars = three ? [0, 3] : [0, 2];
    const mems: Memref04[] = [];
    types.forEach((t, i) => {
      if (!t) return;
      const wantScalar = scalars.includes(i);
      if (wantScalar ? t.kind !== 'number' : t.kind !== 'memref')
        this.diags.report(Messages.irTypeMismatch, inst.operands[i].span, [
          `operand ${i + 1} of ${inst.op} must be ${wantScalar ? 'a number' : 'a memref'}, not ${type04Text(t)}`,
        ]);
      else if (!wantScalar) mems.push(t as Memref04);
    });
    if (mems.length !== n - 2) return;
    const trans = inst.flags.filter((f) => f === '.n' || f === '.t');
    const op = (m: Memref04, t: string | undefined): readonly Dim[] =>
      t === '.t' && m.shape.length === 2 ? [m.shape[1], m.shape[0]] : m.shape;
    const mismatch = (a: Dim, b: Dim) => a !== null && b !== null && a !== b;
    const bad = (() => {
      switch (inst.op) {
        case 'axpby': {
          const a = op(mems[0], trans[0]);
          return a.length !== mems[1].shape.length || a.some((e, i) => mismatch(e, mems[1].shape[i]));
        }
        case 'cumsum':
          return (
            mems[0].shape.length !== mems[1].shape.length || mems[0].shape.some((e, i) => mismatch(e, mems[1].shape[i]))
          );
        case 'sum': {
          const a = op(mems[0], trans[0]);
          return a.length !== mems[1].shape.length + 1 || (a.length === 2 && mismatch(a[0], mems[1].shape[0]));
        }
        case 'gemm': {
          const a = op(mems[0], trans[0]);
          const b = op(mems[1], trans[1]);
          return (
            a.length !== 2 ||
            b.length !== 2 ||
            mems[2].shape.length !== 2 ||
            mismatch(a[1], b[0]) ||
            mismatch(a[0], mems[2].shape[0]) ||
            mismatch(b[1], mems[2].shape[1])
          );
        }
        case 'gemv': {
          const a = op(mems[0], trans[0]);
          return (
            a.length !== 2 ||
            mems[1].shape.length !== 1 ||
            mems[2].shape.length !== 1 ||
            mismatch(a[1], mems[1].shape[0]) ||
            mismatch(a[0], mems[2].shape[0])
          );
        }
        case 'ger':
          return (
            mems[0].shape.length !== 1 ||
            mems[1].shape.length !== 1 ||
            mems[2].shape.length !== 2 ||
            mismatch(mems[0].shape[0], mems[2].shape[0]) ||
            mismatch(mems[1].shape[0], mems[2].shape[1])
          );
        case 'hadamard':
          return (
            mems.some((m) => m.shape.length !== mems[2].shape.length) ||
            mems.some((m) => m.shape.some((e, i) => mismatch(e, mems[2].shape[i])))
          );
        default:
          return false;
      }
    })();
    if (bad)
      this.diags.report(Messages.irShapeMismatch, inst.span, [
        inst.op,
        `incompatible tensor shapes (${mems.map((m) => type04Text(m)).join(', ')})`,
      ]);
  }
}

/** An annotated view type fits the computed one where it says as much or less (`?` where the computed entry is static). */
function fits(computed: Memref04, annotated: Type04): boolean {
  if (annotated.kind !== 'memref' || annotated.element !== computed.element || annotated.space !== computed.space)
    return false;
  if (annotated.shape.length !== computed.shape.length) return false;
  const ok = (a: Dim, c: Dim) => a === null || a === c;
  return (
    annotated.shape.every((d, i) => ok(d, computed.shape[i])) &&
    annotated.stride.every((d, i) => ok(d, computed.stride[i]))
  );
}
