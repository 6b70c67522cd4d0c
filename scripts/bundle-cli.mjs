// Bundles the command line into one ES module, dist/cli.mjs, so a `kernarg` call loads one file
// instead of ~70 modules of dist/. koffi (a native addon) stays external and is loaded only by the
// commands that open a device. The library entry points (dist/index.js, dist/runtime/index.js) are
// tsc's output and are not bundled. Run by `npm run build`.
import { build } from 'esbuild';

await build({
  entryPoints: ['src/cli/main.ts'],
  outfile: 'dist/cli.mjs',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: ['koffi'],
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: 'none',
  logLevel: 'warning',
});
