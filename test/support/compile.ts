import { DiagnosticBag } from '../../src/diagnostics/diagnostic.js';
import { SourceFile } from '../../src/diagnostics/source.js';
import { compileOpenCL, memoryHost } from '../../src/frontend/opencl-c/index.js';
import type { ClStd } from '../../src/frontend/opencl-c/predefined.js';
import { preprocess } from '../../src/frontend/opencl-c/preprocessor.js';
import { tokensToText } from '../../src/frontend/opencl-c/print-tokens.js';
import { DATA_LAYOUTS, type DataLayout } from '../../src/layout/data-layout.js';

export function pp(
  text: string,
  opts: { std?: ClStd; defines?: [string, string | undefined][]; files?: Record<string, string> } = {},
) {
  const bag = new DiagnosticBag();
  const r = preprocess(
    new SourceFile('t.cl', text),
    memoryHost(opts.files ?? {}),
    { std: opts.std ?? 'CL1.2', target: { name: 'spir64', pointerBits: 64 }, defines: opts.defines },
    bag,
  );
  return { text: tokensToText(r.tokens).trim(), errors: bag.items.map((d) => d.message), diagnostics: bag.items };
}

export function compile(text: string, opts: { std?: ClStd; layout?: DataLayout['name'] } = {}) {
  return compileOpenCL(new SourceFile('t.cl', text), memoryHost({}), {
    std: opts.std,
    layout: DATA_LAYOUTS[opts.layout ?? 'spir64'],
  });
}
