import type { CommandLineMacro } from '../../src/frontend/opencl-c/preprocessor.js';

/** A corpus file's clang flags (`-D`, `-U`, `-I`; the rest ignored) as frontend options. */
export function frontendFlags(flags: readonly string[]): { includeDirs: string[]; commandLine: CommandLineMacro[] } {
  const includeDirs: string[] = [];
  const commandLine: CommandLineMacro[] = [];
  for (let k = 0; k < flags.length; k++) {
    const f = flags[k];
    const value = () => (f.length > 2 ? f.slice(2) : flags[++k]);
    if (f.startsWith('-I')) includeDirs.push(value());
    else if (f.startsWith('-U')) commandLine.push({ undefine: value() });
    else if (f.startsWith('-D')) {
      const d = value();
      const eq = d.indexOf('=');
      commandLine.push(eq < 0 ? { define: d } : { define: d.slice(0, eq), value: d.slice(eq + 1) });
    }
  }
  return { includeDirs, commandLine };
}
