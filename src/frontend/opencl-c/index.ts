import { DEFAULT_CL_STD } from '../../options/input-options.js';
import { DiagnosticBag } from '../../diagnostics/diagnostic.js';
import { SourceFile } from '../../diagnostics/source.js';
import type { DataLayout } from '../../layout/data-layout.js';
import type { KernelModule } from '../../model/kernel-module.js';
import { parse } from './parser.js';
import { type ClStd, clVersion } from './predefined.js';
import { SkipAbort } from './body-record.js';
import { type CommandLineMacro, type FileHost, type PreprocessOptions, preprocess } from './preprocessor.js';
import { SkippingPreprocessor } from './skip-preprocessor.js';

export interface OpenCLFrontendOptions {
  readonly std?: ClStd;
  /** The data layout `sizeof` and initializers are evaluated with (the target's). */
  readonly layout: DataLayout;
  readonly includeDirs?: readonly string[];
  readonly defines?: readonly (readonly [string, string | undefined])[];
  readonly undefines?: readonly string[];
  /** `-D`/`-U` in command-line order (instead of `defines` and `undefines`). */
  readonly commandLine?: readonly CommandLineMacro[];
  /**
   * Read function bodies and inactive `#if` groups at the character level (default true): the
   * result is the same as reading them token by token, only faster.
   */
  readonly skipBodies?: boolean;
  /**
   * Read plain function declarations through the parser's fast path (default true): the result is the same as the
   * general grammar's, only faster (parser-plain-function.ts).
   */
  readonly plainFunctions?: boolean;
}

export interface FrontendResult {
  /** Present when there were no errors. */
  readonly module?: KernelModule;
  readonly diagnostics: DiagnosticBag;
  /** How many function bodies were read at the character level (0 when the token path answered). */
  readonly skippedBodies?: number;
  /** How many function declarations the parser's fast path read. */
  readonly plainFunctions?: number;
}

/** OpenCL C source → KernelModule: preprocess, parse declarations, check kernels. */
export function compileOpenCL(file: SourceFile, host: FileHost, options: OpenCLFrontendOptions): FrontendResult {
  if (options.skipBodies === false) return compileWith(file, host, options, false)!;
  // `#line` directives mark the file: a second reading must start from the same marks.
  const marks = file.lineMarkers.length;
  try {
    const skipped = compileWith(file, host, options, true);
    if (skipped) return skipped;
  } catch (e) {
    if (!(e instanceof SkipAbort)) throw e;
  }
  file.lineMarkers.length = marks;
  return compileWith(file, host, options, false)!;
}

/** One reading; with `skip`, undefined when the parser did not take every body read at the character level as one. */
function compileWith(
  file: SourceFile,
  host: FileHost,
  options: OpenCLFrontendOptions,
  skip: boolean,
): FrontendResult | undefined {
  const diags = new DiagnosticBag();
  const std = options.std ?? DEFAULT_CL_STD;
  const ppOptions: PreprocessOptions = {
    std,
    target: { name: options.layout.name, pointerBits: options.layout.sizeT === 8 ? 64 : 32 },
    includeDirs: options.includeDirs,
    defines: options.defines,
    undefines: options.undefines,
    commandLine: options.commandLine,
  };
  let pp;
  if (skip) {
    const skipping = new SkippingPreprocessor(host, ppOptions, diags);
    try {
      pp = skipping.run(file);
    } catch (e) {
      // Stopped by the budget (or depth) inside a body: the token path would stop at the same
      // error after expanding it all again, so its diagnostics are the answer.
      if (e instanceof SkipAbort && skipping.stopped) return { diagnostics: diags, skippedBodies: 0 };
      throw e;
    }
  } else pp = preprocess(file, host, ppOptions, diags);
  // A cut-short token stream is not parsed: its errors would all be cascades of the one that cut it.
  if (pp.stopped) return { diagnostics: diags, skippedBodies: 0 };
  const parsed = parse(
    pp.tokens,
    { layout: options.layout, clVersion: clVersion(std), plainFunctions: options.plainFunctions },
    diags,
  );
  if (parsed.bodiesRead !== pp.tokens.bodyCount) return undefined;
  const counts = { skippedBodies: parsed.bodiesRead, plainFunctions: parsed.plainFunctions };
  if (diags.hasErrors) return { diagnostics: diags, ...counts };
  const module: KernelModule = {
    language: 'opencl-c',
    path: file.path,
    clVersion: clVersion(std),
    layout: options.layout,
    extensions: parsed.extensions,
    functions: parsed.functions,
    variables: parsed.variables,
    samplers: parsed.samplers,
    records: parsed.records,
  };
  return { module, diagnostics: diags, ...counts };
}

/** Convenience for in-memory sources: no includes beyond the given files. */
export function memoryHost(files: Record<string, string>): FileHost {
  return { readFile: (p) => files[p] };
}

export { SourceFile };
