// `kernarg check` run in this process, and its table read back: shared by the tests of recorded
// binaries (test/check.test.ts) and of fresh compiles by the real tools (test/oracle/check-tools.test.ts).
import { readFileSync } from 'node:fs';
import { runCliWith } from '../../src/cli/main.js';
import { readInput } from '../../src/cli/read-input.js';

/** `kernarg check ...argv` with the real files, its output captured. */
export function runCheck(argv: readonly string[]): { code: number; stdout: string; stderr: string } {
  let stdout = '';
  let stderr = '';
  const code = runCliWith(['check', ...argv], {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
    readFile: (p) => {
      try {
        return readFileSync(p, 'utf8');
      } catch {
        return undefined;
      }
    },
    readInput: (p) => readInput(p),
    color: false,
  });
  return { code, stdout, stderr };
}

/**
 * The table's rows as [class, kernel, slot, change, property, old, new, reason], cut at the columns its dashed line
 * marks.
 */
export function checkRows(table: string): string[][] {
  const lines = table.split('\n');
  const rule = lines.findIndex((l) => /^-+(  -+)+$/.test(l));
  if (rule < 0) return [];
  const starts = [...lines[rule].matchAll(/-+/g)].map((m) => m.index!);
  return lines
    .slice(rule + 1)
    .filter(Boolean)
    .map((l) => starts.map((s, i) => l.slice(s, starts[i + 1]).trim()));
}
