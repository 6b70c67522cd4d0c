import type { FormatName } from './format-names.js';
import type { DiagnosticBag } from '../diagnostics/diagnostic.js';
import type { OptionProblem } from './option-problem.js';
import type { DataLayout } from '../layout/data-layout.js';
import type { KernelModule } from '../model/kernel-module.js';
import type { PlanBase } from '../abi/plan.js';
import type { StreamPlan } from '../abi/stream-plan.js';
import type { PlanView } from '../abi/plan-view.js';
import type { GeneratedCode } from '../model/generated-code.js';
import type { LowerOptions } from './options.js';
import type { PackView, PlanPacking } from '../pack/plan-packing.js';

/**
 * One command-line option of a target: its flag, the values it takes, its default and help line,
 * the field of LowerOptions it sets, and how a checked value goes there. The CLI's parsing,
 * validation and --help, the README's option table and the web page's controls are all made from
 * these; a target declares them with `declareFlags` (flag-declarations.ts), which types each one
 * against the field it sets and makes its `apply`.
 */
export type TargetFlag = TargetFlagKind & {
  /** Also spelled with one dash, as the tool it mirrors does (clspv's `-pod-ubo`). */
  readonly singleDash?: boolean;
  /** The field of lower()'s options it sets, as a library caller writes it: `amdhsa.codeObject`. */
  readonly option: string;
};

type TargetFlagKind =
  | {
      readonly kind: 'boolean';
      readonly flag: string;
      readonly help: string;
      apply(o: LowerOptions, v: boolean): LowerOptions;
    }
  | {
      readonly kind: 'choice';
      readonly flag: string;
      readonly choices: readonly string[];
      /** How help spells the value, where the choices are too many to list (`<triple>`). */
      readonly value?: string;
      readonly default?: string;
      /** Old spellings still taken, each with the choice it now is: the command line warns and takes the new one. */
      readonly deprecated?: Readonly<Record<string, string>>;
      readonly help: string;
      apply(o: LowerOptions, v: string): LowerOptions;
    }
  | {
      readonly kind: 'count';
      readonly flag: string;
      readonly value: string;
      readonly default?: string;
      readonly help: string;
      apply(o: LowerOptions, v: number): LowerOptions;
    }
  | {
      /** Comma-separated words from `choices`; `repeatable` flags gather every occurrence. */
      readonly kind: 'words';
      readonly flag: string;
      readonly choices: readonly string[];
      readonly repeatable: boolean;
      readonly noun: string;
      readonly default?: string;
      readonly help: string;
      apply(o: LowerOptions, v: readonly string[]): LowerOptions;
    }
  | {
      /** A file the CLI reads; `apply` parses its text or says what is wrong on which line. */
      readonly kind: 'file';
      readonly flag: string;
      readonly value: string;
      readonly help: string;
      apply(o: LowerOptions, text: string): LowerOptions | { readonly line: number; readonly message: string };
    };

/**
 * What a format needs beyond the plan: the module and the options. Formats that print generated
 * code are the code generator's (src/codegen/formats.ts), not a target's.
 */
export interface RenderContext {
  readonly module: KernelModule;
  readonly options: LowerOptions;
}

/**
 * A lowered module: the plan, and the target's formats closed over its own typed plan (text, or bytes for binary
 * formats).
 */
export interface Lowered<P extends PlanBase> {
  readonly plan: P;
  render(format: string, ctx: RenderContext): string | Uint8Array;
  /**
   * The text formats the target can write a kernel at a time: the pieces `render`'s text is joined
   * from, made as they are iterated (a file of very many kernels is written without holding its
   * output); undefined for a format rendered whole.
   */
  pieces?(format: string, ctx: RenderContext): Iterable<string> | undefined;
}

/**
 * A lowering a kernel at a time, for the formats written as they are made (files of very many
 * kernels): the plan's module-wide fields, decided before any kernel is lowered, and each kernel's
 * plan made only as a renderer reaches it, so the whole plan is never held. Where a module-wide field depends on the
 * kernels' plans (vulkan's sets and push-constant ranges), the lowering plans every kernel once for it first, dropping
 * each plan, and `kernels` plans them again (vulkan/lower.ts, `vulkanLowering`).
 */
export interface KernelwiseLowering<P extends PlanBase> {
  readonly head: Omit<P, 'kernels'>;
  /** How many kernels `kernels` makes. */
  readonly count: number;
  /**
   * Each kernel's plan, made as it is iterated, the same as the whole lowering's; each call starts
   * again. A kernel's diagnostics go to `diags` (see `quiet`).
   */
  kernels(diags: DiagnosticBag): Iterator<P['kernels'][number]>;
  /**
   * Making a kernel's plan reports nothing (every diagnostic came from making the head). Otherwise
   * the caller lowers every kernel once first, for the diagnostics, before anything is written.
   */
  readonly quiet: boolean;
  /** The pieces of one of `KernelwiseTarget.formats` from a plan whose kernels come one by one. */
  pieces(plan: StreamPlan<P>, format: string, ctx: RenderContext): Iterable<string>;
}

/** A target's kernel-at-a-time lowering, and the formats written from it (the rest need the whole plan). */
export interface KernelwiseTarget<P extends PlanBase> {
  readonly formats: readonly FormatName[];
  /** Undefined where the module-wide checks report errors and no kernel is lowered. */
  lower(module: KernelModule, o: LowerOptions, diags: DiagnosticBag): KernelwiseLowering<P> | undefined;
}

/** A target: everything kernarg knows about one calling convention, in one record. */
/** `unknown <name> '<v>' (choose from ...)` where a library caller's value is none of the choices. */

/**
 * `V`: the view of the packer a host of the target reads (pack/plan-packing.ts), or undefined for a
 * target whose plans no host launches.
 */
export interface Target<P extends PlanBase = PlanBase, V extends PackView | undefined = PackView | undefined> {
  readonly name: P['target'];
  /** A short name for people (the web page's panels and target picker). */
  readonly title: string;
  /** One line for --help and the README. */
  readonly summary: string;
  readonly flags: readonly TargetFlag[];
  /** The formats the target renders from its plan and the module, `table` first (the default). */
  readonly formats: readonly FormatName[];
  /** The data layout `sizeof` and initializers are evaluated with. */
  layout(o: LowerOptions): DataLayout;
  /**
   * Macros the target's compiler predefines for OpenCL C sources; a null value: one kernarg's SPIR predefines have that
   * this compiler leaves undefined.
   */
  predefines(o: LowerOptions): readonly (readonly [string, string | null])[];
  /**
   * Why these options cannot be lowered (a value outside its choices, a combination the target refuses), or undefined.
   */
  optionProblem(o: LowerOptions): OptionProblem | undefined;
  /**
   * Flags that contradict each other, in the target compiler's words: a usage error on the command line (the lowering
   * reports them too).
   */
  flagConflict(o: LowerOptions): string | undefined;
  /** `generated`: what kernarg's code generator decided for the kernels (tinytc input), for plans that say so. */
  lower(module: KernelModule, o: LowerOptions, diags: DiagnosticBag, generated?: GeneratedCode): Lowered<P> | undefined;
  /**
   * The same lowering a kernel at a time (`KernelwiseLowering`), for the formats it streams.
   * Absent on a target whose module-wide fields need every kernel lowered first.
   */
  readonly kernelwise?: KernelwiseTarget<P>;
  /**
   * The plan for reading (the `table` format). A method: a record of one target's plans stands in the registry's list
   * of all.
   */
  table(plan: P): string;
  /** The slot properties `view` gives, in display order: the ABI diff compares only these across two targets. */
  readonly vocabulary: readonly string[];
  /** The plan reduced to the facts a host depends on (what `kernarg diff` compares). */
  view(plan: P): PlanView;
  /** The plan from its JSON form, every field and slot checked: throws a PlanError naming the JSON path. */
  readPlan(json: unknown): P;
  /**
   * How a host packs a launch of the plan: the packer's view and the kernels' block sizes (the one packer does the
   * rest).
   */
  readonly pack: V extends PackView ? PlanPacking<P, V> : undefined;
}
