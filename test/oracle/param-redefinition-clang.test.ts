// Parameter lists that name one parameter twice, judged by clang-16 -fsyntax-only: kernarg reports "redefinition of
// parameter" exactly where clang does, with the note at the same earlier parameter. The check compares short lists
// pairwise and long ones (over 16 parameters) through a Map (parser-declarators.ts: a Map per list was one of every
// kernel's allocations in a file of very many kernels, issue 30), so the lists here run from 2 to 24 parameters.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { SourceFile } from '../../src/diagnostics/source.js';
import { compileOpenCL, memoryHost } from '../../src/frontend/opencl-c/index.js';
import { SPIR64 } from '../../src/layout/data-layout.js';
import { samples } from '../support/gen.js';
import { CLANG, requireTool } from '../support/tools.js';

/** A parameter: its type and name (null: unnamed), from few names so that lists repeat them. */
const param = fc.record({
  type: fc.constantFrom('int', 'float', 'global int *', 'local float4 *', 'uint'),
  name: fc.option(fc.constantFrom('a', 'b', 'c', 'n'), { freq: 6 }),
});
const list = fc.array(param, { minLength: 2, maxLength: 24 });

/** One function per line: `void fK(params) {}`, so a diagnostic's line names its function. */
function render(lists: readonly (readonly { type: string; name: string | null }[])[]): string {
  return lists
    .map((ps, k) => `void f${k}(${ps.map((p) => (p.name ? `${p.type} ${p.name}` : p.type)).join(', ')}) {}`)
    .join('\n');
}

/** "line:col error" and "line:col note" of every redefinition of a parameter, in order. */
function kernargReports(source: string): string[] {
  const file = new SourceFile('input.cl', source);
  const fe = compileOpenCL(file, memoryHost({}), { layout: SPIR64, std: 'CL1.2' });
  const out: string[] = [];
  for (const d of fe.diagnostics.items) {
    if (!d.message.startsWith('redefinition of parameter')) continue;
    const at = file.lineCol(d.span!.start);
    const note = d.related.find((r) => r.message === 'previous declaration is here')!;
    const was = file.lineCol(note.span!.start);
    out.push(`${at.line}:${at.col} ${d.message} / ${was.line}:${was.col}`);
  }
  return out;
}

function clangReports(clang: string, source: string): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'kernarg-params-'));
  try {
    const path = join(dir, 'input.cl');
    writeFileSync(path, source);
    const r = spawnSync(clang, ['-x', 'cl', '-cl-std=CL1.2', '-fsyntax-only', '-ferror-limit=0', path], {
      encoding: 'utf8',
    });
    const out: string[] = [];
    const lines = r.stderr.split('\n');
    for (let k = 0; k < lines.length; k++) {
      const m = /^[^:]+:(\d+):(\d+): error: (redefinition of parameter '\w+')$/.exec(lines[k]);
      if (!m) continue;
      let note: RegExpExecArray | null = null;
      for (let j = k + 1; j < lines.length && !note; j++)
        note = /^[^:]+:(\d+):(\d+): note: previous declaration is here$/.exec(lines[j]);
      out.push(`${m[1]}:${m[2]} ${m[3]} / ${note![1]}:${note![2]}`);
    }
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('parameter redefinitions are reported where clang-16 reports them, short and long lists', (t) => {
  const clang = requireTool(t, CLANG);
  if (!clang) return;
  // 20 functions a file: fewer errors than kernarg's limit of 200 shown (clang's -ferror-limit=0 shows all).
  const { values, seed } = samples(fc.array(list, { minLength: 20, maxLength: 20 }), 8, 3204);
  let reported = 0;
  for (const lists of values) {
    const source = render(lists);
    const ours = kernargReports(source);
    assert.deepEqual(ours, clangReports(clang, source), `seed ${seed}\n${source}`);
    reported += ours.length;
  }
  // The generated lists must exercise the check: many repeat a name.
  assert.ok(reported > 30, `only ${reported} redefinitions in the samples`);
});
