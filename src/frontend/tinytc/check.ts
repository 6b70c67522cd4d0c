import { assertNever } from '../../assert-never.js';
import type { DiagnosticBag } from '../../diagnostics/diagnostic.js';
import { Messages } from '../../diagnostics/messages.js';
import type { Span } from '../../diagnostics/source.js';
import { kernelName, varName } from './calling-convention.js';
import { BUILTIN_PREFIX, isReservedCName } from './reserved-names.js';
import {
  INT_BITS,
  componentType,
  isComplexType,
  isFloatType,
  isFloating,
  isUnaryArith,
  type Dim,
  type Func,
  type Inst,
  type IrType,
  type MemrefType,
  type Operand,
  type Program,
  type Region,
  type ScalarTypeName,
  typeText,
} from './ast.js';
import { checkBlas } from './check-blas.js';
import { checkCoopmatrix } from './check-coopmatrix.js';
import type { CheckContext } from './check-context.js';
import { checkExpand, checkFuse, checkSubview } from './check-views.js';
import { I1, I32, INDEX, sameIrType } from './type-rules.js';

export { sameIrType };

/** The type of every value of a function (parameters and instruction results), by name. */
export type ValueTypes = ReadonlyMap<string, IrType>;

/**
 * Checks one program: values defined once and before use, operand and annotation types agreeing,
 * modes in range, shapes of the BLAS-like instructions agreeing, collective instructions outside
 * spmd regions. Returns each function's value types.
 */
export function checkProgram(program: Program, diags: DiagnosticBag): Map<Func, ValueTypes> {
  const seen = new Map<string, Span>();
  // Kernel names as OpenCL C spells them: `@256` and `@x256` are two tinytc names but one kernel.
  const spelled = new Map<string, Func>();
  const out = new Map<Func, ValueTypes>();
  for (const f of program.funcs) {
    const prev = seen.get(f.name);
    if (prev) diags.report(Messages.irDuplicateFunc, f.span, [f.name], [{ message: 'first defined here', span: prev }]);
    seen.set(f.name, f.span);
    const c = kernelName(f.name);
    const other = spelled.get(c);
    if (other && other.name !== f.name)
      diags.report(
        Messages.irKernelNameClash,
        f.span,
        [f.name, c, other.name],
        [{ message: 'defined here', span: other.span }],
      );
    if (!other) spelled.set(c, f);
    out.set(f, new FuncChecker(f, diags).run());
  }
  return out;
}

/** One function's checker; the switch in `inst` hands the view and BLAS instructions to their family's file. */
class FuncChecker implements CheckContext {
  /** Scopes of visible values. */
  private readonly scopes: Map<string, IrType>[] = [new Map()];
  private readonly defined = new Map<string, Span>();
  private readonly types = new Map<string, IrType>();
  /** Depth of enclosing foreach regions. */
  private spmd = 0;

  constructor(
    private readonly f: Func,
    readonly diags: DiagnosticBag,
  ) {}

  run(): ValueTypes {
    const kernel = kernelName(this.f.name);
    if (isReservedCName(kernel) || BUILTIN_PREFIX.test(kernel))
      this.diags.report(Messages.irReservedName, this.f.span, [`@${this.f.name}`, kernel]);
    for (const p of this.f.params) {
      const c = varName(p.name);
      if (isReservedCName(c) || BUILTIN_PREFIX.test(c))
        this.diags.report(Messages.irReservedName, p.span, [`%${p.name}`, c]);
      if (p.type.kind === 'scalar' && p.type.name === 'i1' && !p.passedAsByte)
        this.diags.report(Messages.irBoolParam, p.span, [p.name]);
      this.define(p.name, p.span, p.type);
    }
    this.region(this.f.body, null);
    return this.types;
  }

  private define(name: string, span: Span, type: IrType): void {
    const prev = this.defined.get(name);
    if (prev) this.diags.report(Messages.irRedefined, span, [name], [{ message: 'first defined here', span: prev }]);
    this.defined.set(name, span);
    this.types.set(name, type);
    this.scopes[this.scopes.length - 1].set(name, type);
  }

  collective(inst: Inst, what: string): void {
    if (this.spmd > 0) this.diags.report(Messages.irCollectiveInSpmd, inst.span, [what]);
  }

  /** Static extents that must agree; dynamic ones are the caller's promise. */
  sameExtent(a: Dim, b: Dim, inst: Inst, what: string): void {
    if (a !== null && b !== null && a !== b)
      this.diags.report(Messages.irShapeMismatch, inst.span, [
        inst.op === 'blas' ? inst.fn : inst.op,
        `${what} (${a} vs ${b})`,
      ]);
  }

  private lookup(name: string): IrType | undefined {
    for (let i = this.scopes.length - 1; i >= 0; i--) {
      const t = this.scopes[i].get(name);
      if (t) return t;
    }
    return undefined;
  }

  /** The operand's type; immediates take the expected type. Reports undefined values and mismatches. */
  use(o: Operand, expected: IrType | null, what: string): IrType | undefined {
    if (o.kind !== 'value') {
      if (expected && expected.kind !== 'scalar')
        this.diags.report(Messages.irTypeMismatch, o.span, [
          `${what} must be a value of type ${typeText(expected)}, not an immediate`,
        ]);
      if (expected && expected.kind === 'scalar' && o.kind === 'complex' && !isComplexType(expected.name))
        this.diags.report(Messages.irTypeMismatch, o.span, [
          `${what}: a complex immediate where ${expected.name} is expected`,
        ]);
      if (expected && expected.kind === 'scalar' && o.kind === 'float' && !isFloating(expected.name)) {
        this.diags.report(Messages.irTypeMismatch, o.span, [
          `${what}: a floating immediate where ${expected.name} is expected`,
        ]);
      }
      if (expected && expected.kind === 'scalar' && o.kind === 'int') {
        const bits = expected.name === 'i1' ? 1 : INT_BITS[expected.name];
        const fits =
          bits === 1
            ? o.value === 0n || o.value === 1n
            : bits === undefined || BigInt.asIntN(bits, o.value) === o.value;
        if (!fits) this.diags.report(Messages.irImmediateRange, o.span, [o.value.toString(), expected.name]);
      }
      return expected ?? undefined;
    }
    const t = this.lookup(o.name);
    if (!t) {
      this.diags.report(Messages.irUndefined, o.span, [o.name]);
      return undefined;
    }
    if (expected && !sameIrType(t, expected)) {
      this.diags.report(Messages.irTypeMismatch, o.span, [
        `%${o.name} has type ${typeText(t)}, but ${what} is annotated ${typeText(expected)}`,
      ]);
    }
    return t;
  }

  private region(r: Region, ifResults: readonly IrType[] | null): void {
    this.scopes.push(new Map());
    r.body.forEach((inst, i) => {
      if (inst.op === 'yield' && ifResults && i !== r.body.length - 1)
        this.diags.report(Messages.irYieldNotLast, inst.span);
      this.inst(inst, ifResults);
    });
    const last = r.body[r.body.length - 1];
    if (ifResults && ifResults.length > 0 && last?.op !== 'yield')
      this.diags.report(Messages.irIfRegionNeedsYield, r.span, [ifResults.length]);
    this.scopes.pop();
  }

  results(inst: Inst, types: IrType[]): void {
    if (inst.results.length !== types.length) {
      this.diags.report(Messages.irResultCount, inst.span, [inst.op, inst.results.length, types.length]);
    }
    inst.results.forEach((r, i) => this.define(r.name, r.span, types[i] ?? { kind: 'void' }));
  }

  memref(t: IrType, span: Span, what: string): MemrefType | undefined {
    if (t.kind === 'memref') return t;
    this.diags.report(Messages.irTypeMismatch, span, [`${what} needs a memref type, not ${typeText(t)}`]);
    return undefined;
  }

  indices(ix: readonly Operand[], rank: number, span: Span, what: string): void {
    if (ix.length !== rank)
      this.diags.report(Messages.irOperandCount, span, [what, `${rank} indices for this operand, not ${ix.length}`]);
    for (const i of ix) this.use(i, INDEX, 'an index');
  }

  mode(m: number, rank: number, span: Span): boolean {
    if (m < 0 || m >= rank) {
      this.diags.report(Messages.irBadMode, span, [m, rank]);
      return false;
    }
    return true;
  }

  private inst(inst: Inst, ifResults: readonly IrType[] | null): void {
    switch (inst.op) {
      case 'alloca': {
        this.collective(inst, 'alloca');
        const m = this.memref(inst.type.type, inst.type.span, 'alloca');
        if (m && (m.shape.some((d) => d === null) || m.stride.some((d) => d === null)))
          this.diags.report(Messages.irTypeMismatch, inst.type.span, ['alloca needs a static shape and stride']);
        this.results(inst, [inst.type.type]);
        return;
      }
      case 'arith': {
        const unary = isUnaryArith(inst.fn);
        if (inst.operands.length !== (unary ? 1 : 2))
          this.diags.report(Messages.irOperandCount, inst.span, [
            `arith.${inst.fn}`,
            unary ? '1 operand' : '2 operands',
          ]);
        const at = inst.type.type;
        if (at.kind !== 'scalar')
          this.diags.report(Messages.irTypeMismatch, inst.type.span, ['arith needs a scalar type']);
        else if (at.name === 'i1' && !['and', 'or', 'xor', 'not'].includes(inst.fn))
          this.diags.report(Messages.irArithOnI1, inst.span, [inst.fn]);
        else if (isFloatType(at.name) && ['shl', 'shr', 'and', 'or', 'xor', 'not'].includes(inst.fn))
          this.diags.report(Messages.irArithOnFloat, inst.span, [inst.fn, at.name]);
        for (const o of inst.operands) this.use(o, inst.type.type, `arith.${inst.fn}`);
        // tinytc v0.4's abs, im and re of a complex number give its component type.
        const real = at.kind === 'scalar' && isComplexType(at.name) && ['abs', 'im', 're'].includes(inst.fn);
        this.results(inst, [real ? { kind: 'scalar', name: componentType(at.name as 'c32' | 'c64') } : at]);
        return;
      }
      case 'cmp':
        if (inst.operands.length !== 2)
          this.diags.report(Messages.irOperandCount, inst.span, [`cmp.${inst.fn}`, '2 operands']);
        for (const o of inst.operands) this.use(o, inst.type.type, `cmp.${inst.fn}`);
        this.results(inst, [I1]);
        return;
      case 'cast':
        this.use(inst.operand, inst.from.type, 'cast');
        if (inst.from.type.kind !== 'scalar' || inst.to.type.kind !== 'scalar')
          this.diags.report(Messages.irTypeMismatch, inst.span, ['cast converts scalars only']);
        this.results(inst, [inst.to.type]);
        return;
      case 'load': {
        this.use(inst.operand, inst.type.type, 'load');
        const t = inst.type.type;
        if (t.kind === 'group') {
          this.indices(inst.indices, 1, inst.span, 'load from a group');
          this.results(inst, [t.memref]);
        } else {
          const m = this.memref(t, inst.type.span, 'load');
          if (m) this.indices(inst.indices, m.shape.length, inst.span, 'load');
          this.results(inst, [m ? { kind: 'scalar', name: m.element } : { kind: 'void' }]);
        }
        return;
      }
      case 'store': {
        this.use(inst.operand, inst.type.type, 'store');
        const m = this.memref(inst.type.type, inst.type.span, 'store');
        if (m) {
          this.use(inst.value, { kind: 'scalar', name: m.element }, 'the stored value');
          this.indices(inst.indices, m.shape.length, inst.span, 'store');
        }
        this.results(inst, []);
        return;
      }
      case 'size': {
        this.use(inst.operand, inst.type.type, 'size');
        // A group's size (v0.4's `size %group[0]`) is its member count.
        if (inst.type.type.kind === 'group') return this.results(inst, [INDEX]);
        const m = this.memref(inst.type.type, inst.type.span, 'size');
        if (m) this.mode(inst.mode, m.shape.length, inst.span);
        this.results(inst, [INDEX]);
        return;
      }
      case 'subview':
        return checkSubview(this, inst);
      case 'expand':
        return checkExpand(this, inst);
      case 'fuse':
        return checkFuse(this, inst);
      case 'group_id':
      case 'group_size':
        this.results(inst, [INDEX]);
        return;
      case 'if': {
        this.use(inst.condition, I1, 'the if condition');
        const types = inst.resultTypes.map((t) => t.type);
        this.region(inst.then, types);
        if (inst.else) this.region(inst.else, types);
        else if (types.length)
          this.diags.report(Messages.irOperandCount, inst.span, ['if with results', 'an else region']);
        this.results(inst, types);
        return;
      }
      case 'yield': {
        if (!ifResults) {
          this.diags.report(Messages.irYieldOutside, inst.span);
          return;
        }
        if (inst.operands.length !== ifResults.length || inst.types.length !== inst.operands.length) {
          this.diags.report(Messages.irOperandCount, inst.span, [
            'yield',
            `${ifResults.length} value(s) with as many types`,
          ]);
        }
        inst.operands.forEach((o, i) => {
          const t = inst.types[i]?.type;
          if (t && ifResults[i] && !sameIrType(t, ifResults[i]))
            this.diags.report(Messages.irTypeMismatch, inst.types[i].span, [
              `yield ${typeText(t)} where the if returns ${typeText(ifResults[i])}`,
            ]);
          this.use(o, t ?? null, 'yield');
        });
        return;
      }
      case 'for':
      case 'foreach': {
        const lt: IrType = inst.loopType?.type ?? INDEX;
        if (lt.kind !== 'scalar' || lt.name.startsWith('f') || lt.name === 'i1')
          this.diags.report(Messages.irTypeMismatch, inst.loopType?.span ?? inst.span, [
            'a loop variable needs an integer type',
          ]);
        this.use(inst.from, lt, 'the loop start');
        this.use(inst.to, lt, 'the loop end');
        if (inst.step) this.use(inst.step, lt, 'the loop step');
        if (inst.step?.kind === 'int' && inst.step.value <= 0n)
          this.diags.report(Messages.irNonPositiveLoopStep, inst.step.span, [String(inst.step.value)]);
        if (inst.op === 'foreach') this.collective(inst, 'foreach');
        // Loop-carried values: each initial value is read outside the loop; the body's yield gives the
        // next ones, as an if's gives its results.
        const carried = inst.carried ?? [];
        for (const c of carried) this.use(c.init, c.type.type, 'a loop-carried initial value');
        this.scopes.push(new Map());
        this.define(inst.variable.name, inst.variable.span, lt);
        for (const c of carried) this.define(c.name, c.span, c.type.type);
        if (inst.op === 'foreach') this.spmd++;
        this.region(inst.body, carried.length ? carried.map((c) => c.type.type) : null);
        if (inst.op === 'foreach') this.spmd--;
        this.scopes.pop();
        if (carried.length)
          this.results(
            inst,
            carried.map((c) => c.type.type),
          );
        return;
      }
      case 'blas':
        return checkBlas(this, inst);
      // The v0.4 rewrite's instructions (to-v03.ts), which the v0.4 checker has checked: their operands and results.
      case 'parallel':
        this.spmd++;
        this.scopes.push(new Map());
        this.region(inst.body, null);
        this.scopes.pop();
        this.spmd--;
        return this.results(inst, []);
      case 'associated':
        this.use(inst.operand, inst.type.type, 'associated');
        return this.results(inst, [I1]);
      case 'subgroup_builtin':
        return this.results(inst, [I32]);
      case 'subgroup_broadcast':
        this.use(inst.operand, inst.type.type, 'subgroup_broadcast');
        this.use(inst.index, I32, 'the subgroup_broadcast index');
        return this.results(inst, [inst.type.type]);
      case 'barrier':
        return this.results(inst, []);
      case 'subgroup_operation':
        this.use(inst.operand, inst.type.type, `subgroup_${inst.group}_${inst.fn}`);
        return this.results(inst, [inst.type.type]);
      case 'atomic_load':
      case 'atomic_update': {
        this.use(inst.operand, inst.type.type, inst.op);
        const m = this.memref(inst.type.type, inst.type.span, inst.op);
        if (!m) return this.results(inst, []);
        const element: IrType = { kind: 'scalar', name: m.element };
        if (inst.op === 'atomic_update') this.use(inst.value, element, `the value ${inst.op} writes`);
        this.indices(inst.indices, m.shape.length, inst.span, inst.op);
        return this.results(inst, inst.op === 'atomic_update' && inst.fn === 'store' ? [] : [element]);
      }
      case 'coopmatrix_construct':
      case 'coopmatrix_extract':
      case 'coopmatrix_insert':
        return checkCoopmatrix(this, inst);
      default:
        assertNever(inst);
    }
  }
}

export type { ScalarTypeName };
