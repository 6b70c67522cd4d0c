#!/usr/bin/env node
// Node's on-disk compile cache, where the running Node has it (22.1 and later): later calls skip
// compiling the bundle. KERNARG_NO_COMPILE_CACHE=1 turns it off.
import module from 'node:module';
if (typeof module.enableCompileCache === 'function' && !process.env.KERNARG_NO_COMPILE_CACHE)
  module.enableCompileCache();
const argv = process.argv.slice(2);
// `--version` loads the one-line version module; `lower` a bundle of that command alone; the rest the whole CLI.
if (argv.length === 1 && argv[0] === '--version') {
  const [{ KERNARG_VERSION }, { writeSync }] = await Promise.all([import('../dist/version.js'), import('node:fs')]);
  // write(2), not process.stdout: building the stream would cost more than the rest of the call.
  writeSync(1, `${KERNARG_VERSION}\n`);
} else if (argv[0] === 'lower' && !argv.includes('--help') && !argv.includes('-h')) {
  const { runLowerCli } = await import('../dist/cli-lower.mjs');
  process.exitCode = runLowerCli(argv);
} else {
  const { runCli } = await import('../dist/cli.mjs');
  process.exitCode = await runCli(argv);
}
