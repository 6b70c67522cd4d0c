import { DiagnosticBag } from '../diagnostics/diagnostic.js';
import type { SourceFile } from '../diagnostics/source.js';
import type { DataLayout } from '../layout/data-layout.js';
import type { KernelModule } from '../model/kernel-module.js';
import type { Func, Program } from './ast.js';
import { type DopeOrder, lowerFunc } from './calling-convention.js';
import { type ValueTypes, checkProgram } from './check.js';
import { chooseWorkGroupSize } from './codegen/work-group-size.js';
import { lexIr } from './lexer.js';
import { IrParser } from './parser.js';

export interface TinytcFrontendOptions {
  readonly layout: DataLayout;
  readonly dopeOrder?: DopeOrder;
}

export interface TinytcResult {
  readonly program?: Program;
  readonly module?: KernelModule;
  /** Each function's value types, as the checker derived them. */
  readonly types?: ReadonlyMap<Func, ValueTypes>;
  readonly diagnostics: DiagnosticBag;
}

/** tinytc IR → checked program → KernelModule through the calling convention. */
export function compileTinytc(file: SourceFile, options: TinytcFrontendOptions): TinytcResult {
  const diags = new DiagnosticBag();
  const program = new IrParser(lexIr(file, diags), diags).parse();
  const types = checkProgram(program, diags);
  if (diags.hasErrors) return { program, diagnostics: diags };
  const functions = program.funcs.map((f) => lowerFunc(f, options.dopeOrder ?? 'interleaved', chooseWorkGroupSize(f), diags));
  const module: KernelModule = {
    language: 'tinytc',
    path: file.path,
    // Group arguments are pointers to pointers, which OpenCL C allows from 2.0.
    clVersion: 200,
    layout: options.layout,
    extensions: [],
    functions,
    variables: [],
    samplers: [],
    records: [],
  };
  return { program, module, types, diagnostics: diags };
}
