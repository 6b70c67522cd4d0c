// What every fuzz target checks of a lowering: it returns (never throws), an absent output comes
// with an error, every diagnostic has a span inside its file and formats, JSON output parses, and
// lowering the same input again gives the same output and the same diagnostics.
import { formatDiagnostics } from '../../src/diagnostics/format.js';
import { type LowerOptions, type LowerResult, lower } from '../../src/lower.js';

export class FuzzFailure extends Error {}

/** Bytes as source text: UTF-8 where valid, U+FFFD where not (as a file read from disk). */
export const decode = (data: Uint8Array): string => new TextDecoder().decode(data);

/** A few headers the inputs may #include, so the include path gets exercised without a file system. */
const FILES: Record<string, string> = {
  'a.h': '#pragma once\n#define A(x) (x + 1)\ntypedef int a_t;\n',
  'b.h': '#include "a.h"\nstruct B { a_t v; };\n',
  'self.h': '#include "self.h"\n',
  'bad.h': { error: 'is not a regular file' } as unknown as string,
};
const host = { readFile: (p: string) => FILES[p.replace(/^\.\//, '')] ?? undefined };

function summary(r: LowerResult): string {
  return `${r.output ?? '<none>'}\n${r.diagnostics.map((d) => `${d.code} ${d.severity} ${d.span?.start}-${d.span?.end} ${d.message}`).join('\n')}`;
}

let calls = 0;

/** Lowers and checks the result; every `repeatEvery`-th call also lowers again and compares (1: always). */
export function checkLowering(path: string, text: string, options: LowerOptions, repeatEvery = 8): LowerResult {
  const r = lower(path, text, host, options);
  if (r.output === undefined && !r.diagnostics.some((d) => d.severity === 'error') && r.plan === undefined) {
    throw new FuzzFailure(`no output and no error for ${options.target}/${options.format}`);
  }
  for (const d of r.diagnostics) {
    if (!d.span) continue;
    const len = d.span.file.text.length;
    if (!(d.span.start >= 0 && d.span.end >= d.span.start && d.span.end <= len + 1))
      throw new FuzzFailure(`diagnostic span ${d.span.start}-${d.span.end} outside its file of ${len}: ${d.message}`);
  }
  const formatted = formatDiagnostics(r.diagnostics);
  if (/[\u0000-\u0008\u000b-\u001f\u007f]/.test(formatted))
    throw new FuzzFailure('a control character reached the diagnostic output');
  if (r.output !== undefined && options.format === 'json') JSON.parse(r.output);
  if (++calls % repeatEvery !== 0) return r;
  const again = lower(path, text, host, options);
  if (summary(again) !== summary(r)) throw new FuzzFailure('lowering the same input twice gave different results');
  return r;
}
