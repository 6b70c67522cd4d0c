/**
 * The semantic checks of OpenCL C declarations, apart from the grammar: redeclarations and
 * their compatibility, kernel signatures, program-scope variables and their initial bytes,
 * static assertions. The parser hands it each declaration once it has read it (as clang's
 * Parser hands declarations to Sema); the checker decides what the declaration means, names
 * what is wrong with it, and builds the module's functions, variables and samplers.
 */
import { typeToString } from '../../types/print.js';
import type { DiagnosticBag } from '../../diagnostics/diagnostic.js';
import { Messages } from '../../diagnostics/messages.js';
import type { Span } from '../../diagnostics/source.js';
import type {
  CallArgs,
  CallSite,
  FunctionInfo,
  KernelAttributes,
  LiteralSampler,
  LocalVariable,
  ModuleVariable,
  Parameter,
} from '../../model/kernel-module.js';
import { type QualType, type Type, canonical, q } from '../../types/types.js';
import { type KernelCheckContext, checkKernel } from './check-kernel.js';
import { TypeChecker } from './check-types.js';
import { TypeInterner } from './type-interner.js';
import { SourceParameter } from './source-parameter.js';
import { type EvalContext, type Expr, evaluate, evaluateInt } from './expr.js';
import { type Init, initializerBytes } from './initializer.js';
import type { Attribute, DeclSpec, Declarator, ParseOptions } from './parser-core.js';
import { NOT_A_FUNCTION, NOT_DECLARED, type OrdinaryNames } from './ordinary-names.js';
import { compatibleObjectTypes, functionTypeOf, sameType } from './type-compat.js';

/** What the parser read in a function body: it skips bodies, noting calls and names. */
export interface FunctionBody {
  readonly calls: readonly CallSite[];
  readonly callArgs: readonly CallArgs[];
  /** Identifiers the body names (not as members), each once, in order of first use. */
  readonly names: readonly string[];
  /** Kernel-scope `local` variables (the parser reads their declarations). */
  readonly localVariables: readonly LocalVariable[];
}

/**
 * What most functions have none of, one object each for every function of every file (a file of 190,000 kernels held
 * four empty arrays and an empty attribute object per kernel: issue 30). Frozen: nothing may add to a shared one.
 */
const NO_LOCALS: readonly LocalVariable[] = Object.freeze([]);
const NO_CALLS: readonly CallSite[] = Object.freeze([]);
const NO_CALL_ARGS: readonly CallArgs[] = Object.freeze([]);
const NO_USES: readonly string[] = Object.freeze([]);
const NO_ATTRIBUTES: KernelAttributes = Object.freeze({});

/** A program-scope variable whose declarator passed the checks made before its initializer is read. */
export interface PendingVariable {
  readonly d: Declarator;
  readonly space: 'global' | 'constant';
  readonly isSampler: boolean;
}

/** `attributes` with the kernel attributes of `list` added (a new object at the first one; `NO_ATTRIBUTES` is frozen). */
function kernelAttributes(list: readonly Attribute[], attributes: KernelAttributes): KernelAttributes {
  for (const a of list) {
    if (attributes === NO_ATTRIBUTES) attributes = {};
    if (a.name === 'reqd_work_group_size') attributes.reqdWorkGroupSize = a.ints as [number, number, number];
    else if (a.name === 'work_group_size_hint') attributes.workGroupSizeHint = a.ints as [number, number, number];
    else if (a.name === 'vec_type_hint') attributes.vecTypeHint = a.type;
    else if (a.name === 'intel_reqd_sub_group_size') attributes.intelReqdSubGroupSize = a.ints![0];
  }
  return attributes;
}

/** The attributes only a kernel may carry, in the order clang-16 looks for them (SemaDeclAttr.cpp). */
const KERNEL_ONLY_ATTRIBUTES = [
  'reqd_work_group_size',
  'work_group_size_hint',
  'vec_type_hint',
  'intel_reqd_sub_group_size',
] as const;

const hasAttribute = (list: readonly Attribute[], name: string) => list.some((a) => a.name === name);

export class DeclarationChecker extends TypeChecker {
  /** The functions in order of first declaration; the ordinary table's entry for each holds its index here. */
  private readonly functions: FunctionInfo[] = [];
  /** Equal parameter and result types as one object (type-interner.ts). */
  private readonly types = new TypeInterner();
  private readonly variables: ModuleVariable[] = [];
  private readonly samplers: LiteralSampler[] = [];
  /** What checkKernel reads, one object for every kernel (`enabled` is the live set). */
  private readonly kernelContext: KernelCheckContext;

  /**
   * `ordinary` is the parser's table of ordinary identifiers: the checker enters the functions
   * and variables it accepts, which the parser then reads (`sizeof x`, undeclared names).
   * `enabled` is the live set of extensions enabled by pragmas so far.
   */
  constructor(
    private readonly options: ParseOptions,
    diags: DiagnosticBag,
    private readonly ordinary: OrdinaryNames,
    enabled: ReadonlySet<string>,
    private readonly evalCtx: EvalContext,
  ) {
    super(diags, options.layout, enabled);
    this.kernelContext = { diags, clVersion: options.clVersion, enabled };
    ordinary.attach(this.functions);
  }

  /** The functions in order of first declaration, and the program-scope data. */
  result(): { functions: FunctionInfo[]; variables: ModuleVariable[]; samplers: LiteralSampler[] } {
    return { functions: this.functions, variables: this.variables, samplers: this.samplers };
  }

  staticAssert(at: Span, e: Expr): void {
    const v = evaluateInt(e, this.evalCtx);
    if (v === 0n) this.diags.report(Messages.userError, at, ['static assertion failed']);
  }

  /** A typedef may be repeated only with the same type (C11 6.7p3). */
  typedef(d: Declarator, prev: { type: QualType; span: Span } | undefined): void {
    if (prev && !sameType(prev.type, d.type)) {
      this.diags.report(
        Messages.conflictingTypes,
        d.nameSpan,
        [d.name!],
        [{ message: 'previous definition is here', span: prev.span }],
      );
    }
  }

  // ---- Functions ---------------------------------------------------------------------------

  function(spec: DeclSpec, d: Declarator, body: FunctionBody | undefined): void {
    const name = d.name!;
    const fn = d.type.type as Extract<Type, { kind: 'function' }>;
    // The specifiers' attributes, then the declarator's (no array joining them: one function each of 190,000).
    let attributes = kernelAttributes(spec.attrs, NO_ATTRIBUTES);
    attributes = kernelAttributes(d.attrs, attributes);
    const overloadable = hasAttribute(spec.attrs, 'overloadable') || hasAttribute(d.attrs, 'overloadable');
    const declared = d.params ?? [];
    const params: Parameter[] = new Array<Parameter>(declared.length);
    for (let index = 0; index < declared.length; index++) {
      const p = declared[index];
      params[index] = SourceParameter.of(index, p.name ?? '', this.types.qual(p.type), p.span);
    }
    const hasBody = body !== undefined;
    const calls = body?.calls.length ? body.calls : NO_CALLS;
    const callArgs = body?.callArgs.length ? body.callArgs : NO_CALL_ARGS;
    const localVariables = body?.localVariables.length ? body.localVariables : NO_LOCALS;
    const uses = body ? this.moduleVariablesNamed(body.names, params) : NO_USES;
    // One lookup of the name: its code says whether and where the function is already (see OrdinaryNames).
    const nameId = d.nameId ?? -1;
    const prevCode = this.ordinary.functionCode(name, nameId);
    if (prevCode === NOT_A_FUNCTION) {
      this.diags.report(
        Messages.redefinition,
        d.nameSpan,
        [name],
        [{ message: 'previous definition is here', span: this.ordinary.get(name)!.span }],
      );
      return;
    }
    if (spec.kernel && d.variadic) this.diags.report(Messages.kernelVariadic, d.nameSpan);
    // A declaration without `kernel` may not carry a kernel's attributes, even when an earlier one was a kernel's: clang
    // names the first of these it finds, in this order.
    if (!spec.kernel && attributes !== NO_ATTRIBUTES) {
      const misplaced = KERNEL_ONLY_ATTRIBUTES.find((n) => hasAttribute(spec.attrs, n) || hasAttribute(d.attrs, n));
      if (misplaced) this.diags.report(Messages.kernelOnlyAttribute, d.nameSpan, [misplaced]);
    }
    let info: FunctionInfo;
    if (prevCode !== NOT_DECLARED) {
      const prevIndex = prevCode >> 1;
      const prev = this.functions[prevIndex];
      if (!sameType(q(fn), q(functionTypeOf(prev))) && !(overloadable && !spec.kernel && !prev.isKernel)) {
        this.diags.report(
          Messages.conflictingTypes,
          d.nameSpan,
          [name],
          [{ message: 'previous declaration is here', span: prev.span }],
        );
        return;
      }
      if ((prevCode & 1) !== 0 && hasBody) {
        this.diags.report(
          Messages.redefinition,
          d.nameSpan,
          [name],
          [{ message: 'previous definition is here', span: prev.span }],
        );
        return;
      }
      info = {
        ...prev,
        isKernel: prev.isKernel || spec.kernel,
        attributes: { ...prev.attributes, ...attributes },
        ...(hasBody ? { params, calls, uses, callArgs, localVariables, defined: true, span: d.nameSpan } : {}),
      };
      this.functions[prevIndex] = info;
      if (hasBody) this.ordinary.markDefined(name, nameId, prevIndex, prev.span);
    } else {
      // One shape for every function (callArgs always set, empty when none): a spread or a property
      // added later would give FunctionInfo two maps and deopt every target's kernel loop.
      info = {
        name,
        isKernel: spec.kernel,
        result: this.types.qual(fn.result),
        params,
        attributes,
        defined: hasBody,
        calls,
        uses,
        callArgs,
        localVariables,
        span: d.nameSpan,
      };
      const index = this.functions.push(info) - 1;
      this.ordinary.declareFunction(name, nameId, index, hasBody);
    }
    if (spec.kernel) checkKernel(this.kernelContext, info, d.nameSpan, hasBody);
  }

  /** The program-scope variables among `names` that no parameter hides. */
  private moduleVariablesNamed(names: readonly string[], params: readonly Parameter[]): readonly string[] {
    let out: string[] | undefined;
    for (let k = 0; k < names.length; k++) {
      const n = names[k];
      if (this.ordinary.variable(n) && !params.some((p) => p.name === n)) (out ??= []).push(n);
    }
    return out ?? NO_USES;
  }

  // ---- Program-scope variables -----------------------------------------------------------

  /** `extern`: the name is declared; a later definition of a compatible type completes it. */
  externVariable(d: Declarator): void {
    const name = d.name!;
    // An array's elements need a size even in a declaration (clang: "array has incomplete element type").
    if (canonical(d.type).type.kind === 'array') {
      let element = canonical(d.type);
      while (element.type.kind === 'array') element = canonical(element.type.element);
      if (element.type.kind === 'record' && !element.type.decl.fields) {
        const space =
          canonical(d.type).space ?? element.space ?? (this.options.clVersion >= 200 ? 'global' : 'constant');
        this.diags.report(Messages.arrayIncompleteElement, d.nameSpan, [typeToString({ ...element, space })]);
        return;
      }
    }
    if (!this.ordinary.has(name))
      this.ordinary.set(name, { kind: 'variable', span: d.nameSpan, type: d.type, declaredOnly: true });
  }

  /**
   * The checks on a variable's declarator, made before its initializer is read. Undefined when
   * the variable cannot live at program scope (its initializer is then read and dropped).
   */
  variable(d: Declarator): PendingVariable | undefined {
    const type = d.type;
    // `float a[N][]` was refused where it was declared (KA3033); its initializer is not walked: with N in the
    // billions that walk was a fuzzer-found hang.
    for (let t = canonical(type); t.type.kind === 'array'; t = canonical(t.type.element)) {
      const e = canonical(t.type.element).type;
      if (e.kind === 'array' && e.length === null) return undefined;
    }
    // Qualifiers of an array are its elements' (C11 6.7.3p9).
    let element = canonical(type);
    while (element.type.kind === 'array') element = canonical(element.type.element);
    const c = {
      ...element,
      ...canonical(type),
      space: canonical(type).space ?? element.space,
      const: canonical(type).const || element.const,
    };
    const isSampler = c.type.kind === 'opaque' && c.type.name === 'sampler_t';
    let space = c.space;
    if (!space || space === 'generic') {
      if (isSampler && c.const) space = 'constant';
      else if (this.options.clVersion >= 200 && !isSampler) space = 'global';
    }
    if (space !== 'constant' && space !== 'global') {
      this.diags.report(Messages.programScopeSpace, d.nameSpan, [
        this.options.clVersion >= 200 ? 'global or constant' : 'constant',
      ]);
      return undefined;
    }
    // A definition of an incomplete type has no bytes to give (clang refuses it; an initializer
    // over the elements of a huge array of them was walked element by element: a fuzzer-found hang).
    if (element.type.kind === 'record' && !element.type.decl.fields) {
      const shown = typeToString({ ...element, space });
      this.diags.report(
        type.type.kind === 'array' || canonical(type).type.kind === 'array'
          ? Messages.arrayIncompleteElement
          : Messages.variableIncomplete,
        d.nameSpan,
        [shown],
      );
      return undefined;
    }
    if (element.type.kind === 'scalar' && element.type.name === 'half' && !this.enabled.has('cl_khr_fp16')) {
      this.diags.report(Messages.halfVariable, d.nameSpan, [`__${space}`]);
    }
    return { d, space, isSampler };
  }

  /** The definition of a variable `variable` accepted, with its initializer if it has one. */
  defineVariable(v: PendingVariable, init: Init | undefined): void {
    const { d, space } = v;
    const name = d.name!;
    if (!init && space === 'constant') this.diags.report(Messages.constantNeedsInit, d.nameSpan);
    const prev = this.ordinary.get(name);
    // An `extern` declaration of a compatible type (an array's length may be left out) is completed here (C11 6.2.7).
    if (prev && !(prev.kind === 'variable' && prev.declaredOnly && compatibleObjectTypes(prev.type, d.type))) {
      this.diags.report(
        Messages.redefinition,
        d.nameSpan,
        [name],
        [{ message: 'previous definition is here', span: prev.span }],
      );
      return;
    }
    if (v.isSampler) {
      this.defineSampler(d, init);
      return;
    }
    const result = initializerBytes(d.type, init, this.evalCtx, d.nameSpan);
    if (!result) return;
    const type = result.type;
    this.ordinary.set(name, { kind: 'variable', span: d.nameSpan, type });
    this.variables.push({ name, type: { ...type, space }, space, bytes: result.bytes, span: d.nameSpan });
  }

  /** A literal sampler: a program-scope `sampler_t` initialized with an integer constant. */
  private defineSampler(d: Declarator, init: Init | undefined): void {
    if (!init) return;
    if (init.k !== 'expr') {
      this.diags.report(Messages.samplerInit, init.span, ['a braced list']);
      return;
    }
    const v = evaluate(init.e, this.evalCtx);
    if (v === undefined) return;
    if (v.k !== 'int') {
      this.diags.report(Messages.samplerInit, init.span, [v.k === 'float' ? 'a floating value' : `a ${v.k}`]);
      return;
    }
    this.ordinary.set(d.name!, { kind: 'variable', span: d.nameSpan, type: d.type });
    this.samplers.push({ name: d.name!, value: Number(BigInt.asUintN(32, v.v)), span: d.nameSpan });
  }
}
