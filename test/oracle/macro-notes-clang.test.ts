// Diagnostics on tokens that macros made point where clang-16 points them, with its "expanded from
// macro" notes (issue 26 item 5): a macro argument's token at its spelling in the argument, a
// replacement list's token at the invocation with a note per level (outermost first), clang's
// backtrace limit of 6. Each case is compiled by clang-16 -fsyntax-only and by kernarg, and the
// `line:col: severity: message` lines of both are compared.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { formatDiagnostics } from '../../src/diagnostics/format.js';
import { lower } from '../../src/lower.js';
import { CLANG, requireTool } from '../support/tools.js';

const chain = Array.from({ length: 8 }, (_, i) => `#define L${i + 1} ${i < 7 ? `L${i + 2}` : 'badtype'}\n`).join('');

const CASES: Record<string, string> = {
  'argument token': '#define P(t, n) t n\nkernel void k(P(floatt, x)) {}\n',
  'replacement-list token through two macros': '#define T floatt\n#define U T\nkernel void k(U a) {}\n',
  'macro inside an argument': '#define T floatt\n#define R(x) x\nkernel void k(R(T) b) {}\n',
  'argument passed on to another macro': '#define R(x) x\n#define S(x) R(x) y\nkernel void k(S(intt)) {}\n',
  'replacement list of a function-like macro': '#define DECL(n) floatt n\nkernel void k(DECL(a)) {}\n',
  'past the backtrace limit': `${chain}kernel void k(L1 c) {}\n`,
  'in an argument of a call in a replacement list': '#define R(x) x\n#define W R(floatt) w\nkernel void k(W) {}\n',
  'a warning after a macro': '#define B int b\nstruct S { int a; B };\nkernel void k(global struct S *p) {}\n',
  'a warning inside a macro': '#define F struct S { int a; int b }\nF;\nkernel void k(global struct S *p) {}\n',
  // A call of the same macro inside an argument, pre-expanded in between, must not hand its hide set
  // (kernarg left the outer call's P unexpanded: 'unknown type name P') or its argument locations to the outer call.
  'a call of the same macro inside an argument':
    '#define P(t) t\n#define Q(a) P(a) P(z)\nkernel void k(Q(P(floatt))) {}\n',
};

/** `line:col: severity: message` lines, the path, kernarg's code and clang's flag left out. */
function lines(out: string): string[] {
  return out.split('\n').flatMap((l) => {
    const m = /^(?:\S*?:(\d+:\d+): |kernarg: )?(error|warning|note): (.*?)(?: \[(?:KA\d+|-W[\w-]+)\])?$/.exec(l);
    return m ? [`${m[1] ?? '-'}: ${m[2]}: ${m[3]}`] : [];
  });
}

test('diagnostics in macro expansions: the locations and "expanded from macro" notes clang-16 gives', (t) => {
  const clang = requireTool(t, CLANG);
  if (!clang) return;
  const dir = mkdtempSync(join(tmpdir(), 'kernarg-macro-notes-'));
  try {
    for (const [name, src] of Object.entries(CASES)) {
      const file = join(dir, 'k.cl');
      writeFileSync(file, src);
      const r = spawnSync(
        clang,
        ['-cl-std=CL2.0', '-target', 'spir64', '-fsyntax-only', '-fno-color-diagnostics', file],
        { encoding: 'utf8' },
      );
      const theirs = lines(r.stderr);
      const mine = lines(
        formatDiagnostics(
          lower('k.cl', src, { readFile: () => undefined }, { target: 'opencl', format: 'table', std: 'CL2.0' })
            .diagnostics,
        ),
      );
      assert.ok(theirs.length > 0, `${name}: clang gave no diagnostic`);
      assert.deepEqual(mine, theirs, name);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
