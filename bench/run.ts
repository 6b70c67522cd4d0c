// Runs the named benchmarks (all when none are named): npm run bench -- lower
// The benchmarks time the library as users run it, the build in dist/ (tsc's output), not src/
// through tsx: tsx compiles with esbuild's keepNames, which wraps every function in a naming helper
// and measured lowering at 1.6× its built time. So dist/ is built first (BENCH_NO_BUILD=1 skips it,
// e.g. on the device machine, which gets dist/ carried over).
import { spawnSync } from 'node:child_process';

const BENCHES: Record<string, string> = {
  lower: './lower-throughput.js',
  pack: './pack-throughput.js',
  launch: './launch-overhead.js',
  tinytc: './tinytc-kernels.js',
  'tinytc-versions': './tinytc-gemm-versions.js',
  targets: './target-scaling.js',
  'targets-cli': './target-cli.js',
  cli: './cli-per-file.js',
  cache: './build-cache.js',
  diff: './diff-throughput.js',
  codegen: './tinytc-codegen.js',
  'vulkan-launch': './vulkan-launch.js',
  scaling: './scaling.js',
  formats: './format-scaling.js',
  frontend: './frontend-baseline.js',
  'lower-bodies': './lower-bodies.js',
  'lower-hashcat': './lower-hashcat.js',
  'many-kernels': './many-kernels.js',
  'lower-shapes': './lower-shapes.js',
  'frontend-instructions': './frontend-instructions.js',
  'lower-targets': './lower-targets.js',
};
const names = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(BENCHES);
for (const n of names) {
  if (!BENCHES[n]) {
    console.error(`unknown benchmark '${n}' (have: ${Object.keys(BENCHES).join(', ')})`);
    process.exit(2);
  }
}
if (!process.env.BENCH_NO_BUILD) {
  const b = spawnSync('npm', ['run', '--silent', 'build'], { stdio: 'inherit' });
  if (b.status !== 0) process.exit(b.status ?? 1);
}
for (const n of names) {
  console.log(`== ${n}`);
  await import(BENCHES[n]);
}
