// The CLI run in this process on files held in memory, its output captured: the tests that drive
// `kernarg run` and the other commands on a few small inputs each carried their own copy of this.
import { runCliWith } from '../../src/cli/main.js';

/** `kernarg ...argv` reading `files` (path → text; any other path cannot be read), with no file system to write to. */
export function runCliOnFiles(
  argv: readonly string[],
  files: Readonly<Record<string, string>>,
): { code: number; stdout: string; stderr: string } {
  let stdout = '';
  let stderr = '';
  const code = runCliWith(argv, {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
    readFile: (p) => files[p],
    color: false,
  });
  return { code, stdout, stderr };
}
