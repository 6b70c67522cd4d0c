import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCliWith } from '../../src/cli/main.js';

/**
 * `kernarg diff` goldens: `test/diff-fixtures/<case>/` holds old.cl|ir, new.cl|ir, args.json (the diff's options),
 * diff.table.txt and diff.json.
 */
export const DIFF_FIXTURES = join(import.meta.dirname, '..', 'diff-fixtures');

export function diffCases(): string[] {
  return readdirSync(DIFF_FIXTURES, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
}

/**
 * Runs one case in both formats: golden file name → what kernarg prints now (with the exit status) and what the golden
 * holds.
 */
export function renderDiffCase(name: string): Map<string, { actual: string; golden: string | undefined }> {
  const dir = join(DIFF_FIXTURES, name);
  const args = JSON.parse(readFileSync(join(dir, 'args.json'), 'utf8')) as string[];
  const ext = existsSync(join(dir, 'old.ir')) ? 'ir' : 'cl';
  const readFile = (p: string) => (existsSync(join(dir, p)) ? readFileSync(join(dir, p), 'utf8') : undefined);
  const out = new Map<string, { actual: string; golden: string | undefined }>();
  for (const [format, file] of [
    ['table', 'diff.table.txt'],
    ['json', 'diff.json'],
  ] as const) {
    let stdout = '';
    let stderr = '';
    const code = runCliWith(['diff', `old.${ext}`, `new.${ext}`, ...args, '--format', format], {
      stdout: (t) => (stdout += t),
      stderr: (t) => (stderr += t),
      readFile,
      color: false,
    });
    out.set(file, { actual: `${stdout}${stderr}exit status ${code}\n`, golden: readFile(file) });
  }
  return out;
}
