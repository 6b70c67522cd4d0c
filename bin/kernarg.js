#!/usr/bin/env node
// Node's on-disk compile cache, where the running Node has it (22.1 and later): later calls skip
// compiling the bundle. KERNARG_NO_COMPILE_CACHE=1 turns it off.
import module from 'node:module';
if (typeof module.enableCompileCache === 'function' && !process.env.KERNARG_NO_COMPILE_CACHE) module.enableCompileCache();
const { runCli } = await import('../dist/cli.mjs');
process.exitCode = await runCli(process.argv.slice(2));
