#!/usr/bin/env node
// The compile cache (bin/compile-cache.js): later calls skip compiling the bundles.
// KERNARG_NO_COMPILE_CACHE=1 turns it off.
import { fileURLToPath } from 'node:url';
import { enableNodeCompileCache, requireCached } from './compile-cache.js';
enableNodeCompileCache();
const argv = process.argv.slice(2);
// `--version` loads the one-line version module; `lower` a bundle of that command alone; the rest the whole CLI.
if (argv.length === 1 && argv[0] === '--version') {
  const [{ KERNARG_VERSION }, { writeSync }] = await Promise.all([import('../dist/version.js'), import('node:fs')]);
  // write(2), not process.stdout: building the stream would cost more than the rest of the call.
  writeSync(1, `${KERNARG_VERSION}\n`);
} else if (argv[0] === 'lower' && !argv.includes('--help') && !argv.includes('-h')) {
  // CommonJS, so that Node 20 can keep its code cache too (vm.Script's cachedData).
  const { exports, done } = requireCached(fileURLToPath(new URL('../dist/cli-lower.cjs', import.meta.url)));
  process.exitCode = exports.runLowerCli(argv);
  done();
} else {
  const { runCli } = await import('../dist/cli.mjs');
  process.exitCode = await runCli(argv);
}
