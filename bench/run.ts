// Runs the named benchmarks (all when none are named): npm run bench -- lower
const BENCHES: Record<string, string> = { lower: './lower-throughput.js', pack: './pack-throughput.js', launch: './launch-overhead.js', tinytc: './tinytc-kernels.js', targets: './target-scaling.js', 'targets-cli': './target-cli.js', cli: './cli-per-file.js', cache: './build-cache.js', diff: './diff-throughput.js', codegen: './tinytc-codegen.js', 'vulkan-launch': './vulkan-launch.js', scaling: './scaling.js', formats: './format-scaling.js', frontend: './frontend-baseline.js', 'lower-bodies': './lower-bodies.js', 'lower-hashcat': './lower-hashcat.js' };
const names = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(BENCHES);
for (const n of names) {
  if (!BENCHES[n]) {
    console.error(`unknown benchmark '${n}' (have: ${Object.keys(BENCHES).join(', ')})`);
    process.exit(2);
  }
  console.log(`== ${n}`);
  await import(BENCHES[n]);
}
