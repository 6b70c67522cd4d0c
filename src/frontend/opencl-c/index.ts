import { DiagnosticBag } from '../../diagnostics/diagnostic.js';
import { SourceFile } from '../../diagnostics/source.js';
import type { DataLayout } from '../../layout/data-layout.js';
import type { KernelModule } from '../../model/kernel-module.js';
import { parse } from './parser.js';
import { type ClStd, clVersion } from './predefined.js';
import { type CommandLineMacro, type FileHost, preprocess } from './preprocessor.js';

export interface OpenCLFrontendOptions {
  readonly std?: ClStd;
  /** The data layout `sizeof` and initializers are evaluated with (the target's). */
  readonly layout: DataLayout;
  readonly includeDirs?: readonly string[];
  readonly defines?: readonly (readonly [string, string | undefined])[];
  readonly undefines?: readonly string[];
  /** `-D`/`-U` in command-line order (instead of `defines` and `undefines`). */
  readonly commandLine?: readonly CommandLineMacro[];
}

export interface FrontendResult {
  /** Present when there were no errors. */
  readonly module?: KernelModule;
  readonly diagnostics: DiagnosticBag;
}

/** OpenCL C source → KernelModule: preprocess, parse declarations, check kernels. */
export function compileOpenCL(file: SourceFile, host: FileHost, options: OpenCLFrontendOptions): FrontendResult {
  const diags = new DiagnosticBag();
  const std = options.std ?? 'CL1.2';
  const pp = preprocess(file, host, {
    std,
    target: { name: options.layout.name, pointerBits: options.layout.sizeT === 8 ? 64 : 32 },
    includeDirs: options.includeDirs,
    defines: options.defines,
    undefines: options.undefines,
    commandLine: options.commandLine,
  }, diags);
  const parsed = parse(pp.tokens, { layout: options.layout, clVersion: clVersion(std) }, diags);
  if (diags.hasErrors) return { diagnostics: diags };
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
  return { module, diagnostics: diags };
}

/** Convenience for in-memory sources: no includes beyond the given files. */
export function memoryHost(files: Record<string, string>): FileHost {
  return { readFile: (p) => files[p] };
}

export { SourceFile };
