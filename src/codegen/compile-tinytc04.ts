// The tinytc v0.4 path of compileTinytc: parse and check v0.4, lay out its calling convention
// (shapes, then strides, then a group's size and offset) as the KernelModule every target lowers,
// and, where every instruction has a v0.3 counterpart, the v0.3 rewrite the printers read.
import { type Diagnostic, DiagnosticBag } from '../diagnostics/diagnostic.js';
import type { SourceFile } from '../diagnostics/source.js';
import type { DataLayout } from '../layout/data-layout.js';
import type { FunctionInfo, KernelModule } from '../model/kernel-module.js';
import type { Func, Program } from '../frontend/tinytc/ast.js';
import { type ValueTypes, checkProgram } from '../frontend/tinytc/check.js';
import type { Func04, Program04 } from '../frontend/tinytc/v04/ast.js';
import { type ValueTypes04, checkProgram04 } from '../frontend/tinytc/v04/check.js';
import { lowerFunc04 } from '../frontend/tinytc/v04/calling-convention.js';
import { checkParameterBudget04 } from '../frontend/tinytc/parameter-budget.js';
import { lexIr04 } from '../frontend/tinytc/v04/lexer.js';
import { IrParser04 } from '../frontend/tinytc/v04/parser.js';
import { toV03 } from '../frontend/tinytc/v04/to-v03.js';
import type { CodegenPolicy, TinytcApi } from './policy.js';
import type { WorkGroupChoice } from './work-group-size.js';

export interface Tinytc04Result {
  readonly diagnostics: DiagnosticBag;
  readonly program04: Program04;
  readonly types04?: ReadonlyMap<Func04, ValueTypes04>;
  /** The interface (absent when the program has errors). */
  readonly module?: KernelModule;
  /** The v0.3 rewrite with its value types and work-group choices, when every function has one. */
  readonly rewrite?: {
    readonly program: Program;
    readonly types: ReadonlyMap<Func, ValueTypes>;
    readonly functions: readonly FunctionInfo[];
    readonly choices: ReadonlyMap<Func, WorkGroupChoice | null>;
  };
  readonly notLowered?: readonly Diagnostic[];
}

/** Rewrites at most this many times more: views nest no deeper in practice (each pass settles one level). */
const MAX_REWRITES = 16;

export function compileTinytc04(
  file: SourceFile,
  layout: DataLayout,
  policy: CodegenPolicy,
  api: TinytcApi | undefined,
): Tinytc04Result {
  const diags = new DiagnosticBag();
  const program04 = new IrParser04(lexIr04(file, diags), diags).parse();
  const types04 = checkProgram04(program04, diags);
  checkParameterBudget04(program04, diags);
  if (diags.hasErrors) return { diagnostics: diags, program04 };
  // The rewrite is checked as v0.3 for its value types, and rewritten with them until its
  // annotations agree (each pass settles at least one more level of views); a v0.4 program that is
  // valid but reads differently in v0.3 (a name reused in sibling regions) is not generated, and says so.
  let rewrite = toV03(program04, types04);
  let scratch = new DiagnosticBag();
  let types = checkProgram(rewrite.program, scratch);
  for (let pass = 0; pass < MAX_REWRITES && scratch.hasErrors && !rewrite.notLowered.length; pass++) {
    const known = new Map(rewrite.program.funcs.map((f) => [f.name, types.get(f)!]));
    rewrite = toV03(program04, types04, known);
    scratch = new DiagnosticBag();
    types = checkProgram(rewrite.program, scratch);
  }
  const notLowered = [...rewrite.notLowered, ...scratch.items.filter((d) => d.severity === 'error')];
  const byName = new Map(rewrite.program.funcs.map((f) => [f.name, f]));
  const choices = new Map(rewrite.program.funcs.map((f) => [f, policy.workGroupSize(f, api)]));
  // A function without a rewrite keeps the work-group size it states (none when it states none).
  const functions = program04.funcs.map((f) => {
    const g = byName.get(f.name);
    return lowerFunc04(f, g ? (choices.get(g)?.size ?? null) : f.workGroupSize, diags);
  });
  const module: KernelModule = {
    language: 'tinytc',
    path: file.path,
    clVersion: 200,
    layout,
    extensions: [],
    functions,
    variables: [],
    samplers: [],
    records: [],
  };
  const base = { diagnostics: diags, program04, types04, module };
  if (notLowered.length) return { ...base, notLowered };
  return { ...base, rewrite: { program: rewrite.program, types, functions, choices } };
}
