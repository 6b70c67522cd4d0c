// Bundles the command line so a `kernarg` call loads one file instead of ~70
// modules of dist/: dist/cli.mjs (every command) and dist/cli-lower.cjs (`lower` and `--version`
// alone, which bin/kernarg.js loads for those: Node compiles only the code the call runs). koffi
// (a native addon) stays external and is loaded only by the commands that open a device. The
// library entry points (dist/index.js, dist/runtime/index.js) are tsc's output and are not
// bundled. Run by `npm run build`.
import { build } from 'esbuild';

const common = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: ['koffi'],
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: 'none',
  logLevel: 'warning',
};
await build({ ...common, entryPoints: ['src/cli/main.ts'], outfile: 'dist/cli.mjs' });
// CommonJS: bin/compile-cache.js keeps V8's code cache for it on Node 20 too (vm.Script), which ES modules lack.
await build({ ...common, format: 'cjs', entryPoints: ['src/cli/lower-main.ts'], outfile: 'dist/cli-lower.cjs' });
