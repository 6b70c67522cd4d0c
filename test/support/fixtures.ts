import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { formatDiagnostics } from '../../src/diagnostics/format.js';
import { DiagnosticBag } from '../../src/diagnostics/diagnostic.js';
import { SourceFile } from '../../src/diagnostics/source.js';
import { emitDeclarations } from '../../src/emit/declarations.js';
import { compileOpenCL, type OpenCLFrontendOptions } from '../../src/frontend/opencl-c/index.js';
import { compileTinytc } from '../../src/codegen/compile-tinytc.js';
import type { ClStd } from '../../src/frontend/opencl-c/predefined.js';
import { type FileHost, preprocess } from '../../src/frontend/opencl-c/preprocessor.js';
import { tokensToText } from '../../src/frontend/opencl-c/print-tokens.js';
import { DATA_LAYOUTS } from '../../src/layout/data-layout.js';
import { FORMATS, type LowerResult, TARGETS, lower } from '../../src/lower.js';
import type { VulkanTargetOptions } from '../../src/targets/vulkan/lower.js';
import type { CudaSm } from '../../src/targets/cuda/plan.js';

export const FIXTURES = join(import.meta.dirname, '..', 'fixtures');

export interface FixtureOptions {
  std?: ClStd;
  defines?: [string, string | undefined][];
  includeDirs?: string[];
  /** tinytc input: dope-vector argument order. */
  dopeOrder?: 'interleaved' | 'shapes-first';
  /** Why clang cannot serve as the oracle for this case. */
  oracleSkip?: string;
  /** Options of the vulkan target (clspv's), for cases of today's clspv modes. */
  vulkan?: VulkanTargetOptions;
  /**
   * More cuda goldens, one set per architecture (`cuda.sm_80.table.txt`): where parameters aligned above 16 go differs
   * by sm.
   */
  cudaSms?: CudaSm[];
  /** Where the case's expectations come from (a clspv test or source line), for the reader. */
  from?: string;
  /** Which goldens to make; default: all that apply. */
  outputs?: ('preprocessed' | 'declarations' | 'targets')[];
}

/** The golden file of one target and format: `opencl.json`, `llvm.ll`, `opencl.cl`, `vulkan.descriptor-map.txt`. */
function goldenName(target: string, format: string): string {
  if (format === 'json') return `${target}.json`;
  if (format === 'llvm-ir') return `${target}.ll`;
  if (format === 'opencl-c') return `${target}.cl`;
  return `${target}.${format}.txt`;
}

export function fixtureCases(): string[] {
  return readdirSync(FIXTURES, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
}

/** A host that reads the frontend's files (includes too) under `root`, and answers undefined for one that is not there. */
export const diskHost = (root: string): FileHost => ({
  readFile: (p: string) => {
    try {
      return readFileSync(join(root, p), 'utf8');
    } catch {
      return undefined;
    }
  },
});

/** One OpenCL C fixture as the frontend takes it: its path relative to FIXTURES, its text and its options. */
export interface OpenCLFixtureInput {
  readonly name: string;
  readonly path: string;
  readonly text: string;
  readonly options: Pick<OpenCLFrontendOptions, 'std' | 'includeDirs' | 'defines' | 'layout'>;
}

/** Every OpenCL C fixture (tinytc ones left out), with its options.json's std, include folders and defines, spir64. */
export function* openclFixtureInputs(): Generator<OpenCLFixtureInput> {
  for (const name of fixtureCases()) {
    const dir = join(FIXTURES, name);
    if (!existsSync(join(dir, 'input.cl'))) continue;
    const optionsPath = join(dir, 'options.json');
    const o: FixtureOptions = existsSync(optionsPath) ? JSON.parse(readFileSync(optionsPath, 'utf8')) : {};
    const includeDirs = (o.includeDirs ?? []).map((d) => relative(FIXTURES, join(dir, d)));
    const text = readFileSync(join(dir, 'input.cl'), 'utf8');
    const options = { std: o.std, includeDirs, defines: o.defines, layout: DATA_LAYOUTS.spir64 };
    yield { name, path: relative(FIXTURES, join(dir, 'input.cl')), text, options };
  }
}

/** A lowering's text: whole, or (streamed) its pieces joined. */
function outputText(r: LowerResult): string | undefined {
  return r.output ?? (r.pieces ? [...r.pieces].join('') : r.chunks?.join(''));
}

/**
 * Every golden file of one case: name → expected content. Paths in output are relative to the fixture root.
 * `streamed`: each target's output as the CLI gets it, in pieces (`lower(…, { chunked, streamed })`), joined.
 */
export function renderFixture(name: string, how: { readonly streamed?: boolean } = {}): Map<string, string> {
  const stream = how.streamed ? { chunked: true, streamed: true } : {};
  const dir = join(FIXTURES, name);
  const optionsPath = join(dir, 'options.json');
  const options: FixtureOptions = existsSync(optionsPath) ? JSON.parse(readFileSync(optionsPath, 'utf8')) : {};
  const isIr = existsSync(join(dir, 'input.ir'));
  const inputPath = relative(FIXTURES, join(dir, isIr ? 'input.ir' : 'input.cl'));
  const text = readFileSync(join(dir, isIr ? 'input.ir' : 'input.cl'), 'utf8');
  const host = {
    readFile: (p: string) => {
      try {
        return readFileSync(join(FIXTURES, p), 'utf8');
      } catch {
        return undefined;
      }
    },
  };
  const includeDirs = (options.includeDirs ?? []).map((d) => relative(FIXTURES, join(dir, d)));
  const outputs = new Set(options.outputs ?? ['preprocessed', 'declarations', 'targets']);
  const files = new Map<string, string>();
  const base = { std: options.std, includeDirs, defines: options.defines };
  if (isIr) {
    const fe = compileTinytc(new SourceFile(inputPath, text), {
      layout: DATA_LAYOUTS.spir64,
      dopeOrder: options.dopeOrder,
    });
    const diags = formatDiagnostics(fe.diagnostics.items);
    if (diags) files.set('diagnostics.txt', diags);
    if (fe.module) files.set('declarations.txt', emitDeclarations(fe.module));
    if (fe.module) {
      for (const target of TARGETS) {
        for (const format of FORMATS[target]) {
          // The binary is checked by spirv-val and the interface readers (spirv.test.ts); its text is the golden.
          if (format === 'spirv') continue;
          const r = lower(inputPath, text, host, {
            target,
            format,
            tinytc: { dopeOrder: options.dopeOrder },
            ...stream,
          });
          files.set(goldenName(target, format), outputText(r) ?? formatDiagnostics(r.diagnostics));
        }
      }
    }
    return files;
  }
  if (outputs.has('preprocessed')) {
    const bag = new DiagnosticBag();
    const pp = preprocess(
      new SourceFile(inputPath, text),
      host,
      { ...base, std: options.std ?? 'CL1.2', target: { name: 'spir64', pointerBits: 64 } },
      bag,
    );
    files.set('preprocessed.txt', tokensToText(pp.tokens));
  }
  const fe = compileOpenCL(new SourceFile(inputPath, text), host, { ...base, layout: DATA_LAYOUTS.spir64 });
  const diags = formatDiagnostics(fe.diagnostics.items);
  if (diags) files.set('diagnostics.txt', diags);
  if (fe.module && outputs.has('declarations')) files.set('declarations.txt', emitDeclarations(fe.module));
  if (fe.module && outputs.has('targets')) {
    for (const target of TARGETS) {
      for (const format of FORMATS[target]) {
        if (format === 'opencl-c' || format.startsWith('spirv')) continue;
        const r = lower(inputPath, text, host, { ...base, target, format, vulkan: options.vulkan, ...stream });
        files.set(goldenName(target, format), outputText(r) ?? formatDiagnostics(r.diagnostics));
      }
    }
    for (const sm of options.cudaSms ?? []) {
      for (const format of FORMATS.cuda) {
        const r = lower(inputPath, text, host, { ...base, target: 'cuda', format, cuda: { sm } });
        files.set(goldenName(`cuda.sm_${sm}`, format), r.output ?? formatDiagnostics(r.diagnostics));
      }
    }
  }
  return files;
}

/** A valid fixture (one with an opencl.json golden and no oracleSkip), ready for a clang comparison. */
export interface FixtureFile {
  name: string;
  path: string;
  text: string;
  std: 'CL1.2' | 'CL2.0' | 'CL3.0';
  includeDirs: string[];
  defines: [string, string | undefined][];
  clangArgs: string[];
  readFile: (p: string) => string | undefined;
}

export function fixtureFiles(): FixtureFile[] {
  const out: FixtureFile[] = [];
  for (const name of fixtureCases()) {
    const dir = join(FIXTURES, name);
    if (!existsSync(join(dir, 'opencl.json')) || !existsSync(join(dir, 'input.cl'))) continue;
    const options: FixtureOptions = existsSync(join(dir, 'options.json'))
      ? JSON.parse(readFileSync(join(dir, 'options.json'), 'utf8'))
      : {};
    if (options.oracleSkip) continue;
    const path = join(dir, 'input.cl');
    const includeDirs = (options.includeDirs ?? []).map((d) => join(dir, d));
    const defines = options.defines ?? [];
    out.push({
      name,
      path,
      text: readFileSync(path, 'utf8'),
      std: (options.std ?? 'CL1.2') as FixtureFile['std'],
      includeDirs,
      defines,
      clangArgs: [
        ...includeDirs.map((d) => `-I${d}`),
        ...defines.map(([n, v]) => `-D${n}${v === null || v === undefined ? '' : '=' + v}`),
      ],
      readFile: (p) => (existsSync(p) ? readFileSync(p, 'utf8') : undefined),
    });
  }
  return out;
}
