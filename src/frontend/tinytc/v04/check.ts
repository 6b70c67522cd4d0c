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
  type Program04,
  type Region04,
  type Type04,
  type ValueRef,
  type04Text,
} from './ast.js';
import { checkBlas04 } from './check-blas.js';
import type { CheckContext04 } from './check-context.js';
import { checkConstant, checkSupported, unaryType } from './check-scalars.js';
import { COMPARE, placement } from './instructions.js';
import { BOOL, I32, INDEX, sameType04 } from './type-rules.js';
import { viewType } from './views.js';

export { sameType04 };

/** The value types of one function, by name (a name is defined once per function). */
export type ValueTypes04 = ReadonlyMap<string, Type04>;

const isInt = (t: Type04): boolean => t.kind === 'number' && NUMBER_CLASS[t.name] === 'int';

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

/** One function's checker; the switch in `inst` hands scalar and BLAS instructions to their family's file. */
class FuncChecker04 implements CheckContext04 {
  private readonly scopes: Map<string, Type04>[] = [new Map()];
  private readonly defined = new Map<string, Span>();
  private readonly types = new Map<string, Type04>();
  private spmd = 0;

  constructor(
    private readonly f: Func04,
    readonly diags: DiagnosticBag,
  ) {}

  /** foreach_tile's tile extents: positive, the first a multiple of the subgroup size where the function states one. */
  private tileShape(shape: readonly number[], span: Span): void {
    for (const t of shape) if (t <= 0) this.diags.report(Messages.ir04TileExtent, span, [String(t)]);
    const sgs = this.f.subgroupSize;
    if (sgs && shape[0] > 0 && shape[0] % sgs !== 0)
      this.diags.report(Messages.ir04TileSubgroup, span, [String(shape[0]), String(sgs)]);
  }

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
  use(v: ValueRef, expected: Type04 | null, what: string): Type04 | undefined {
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
  gives(inst: Inst04 & { type: { type: Type04; span: Span } | null }, given: Type04 | undefined): Type04 {
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
        if (operandType) checkSupported(this, inst, operandType);
        if (compare) return this.results(inst, [this.gives(inst, BOOL)]);
        return this.results(inst, [this.gives(inst, operandType)]);
      }
      case 'unary':
        return this.results(inst, [unaryType(this, inst)]);
      case 'builtin': {
        const ty = inst.type.type;
        if (!isInt(ty))
          this.diags.report(Messages.irTypeMismatch, inst.type.span, [
            `${inst.op} gives an integer, not ${type04Text(ty)}`,
          ]);
        return this.results(inst, [ty]);
      }
      case 'constant':
        checkConstant(this, inst);
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
        checkBlas04(this, inst);
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
        if (inst.tile) this.tileShape(inst.tile.shape, inst.span);
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
