// The full sweep of --target cuda over the real-world corpora (every file of darktable, silx and
// hashcat's sampled kernels, as test/corpus/corpora.ts lists them) against clang-16's, 19's and 22's
// NVPTX backends: kernels compared, equal, and files refused with the reason.
// Run: npx tsx scripts/cuda-corpus-sweep.ts [16|19|22 ...]   (default: all three)
import { CORPORA } from '../test/corpus/corpora.js';
import { compareCudaFile } from '../test/corpus/cuda-compare.js';

const versions = process.argv.slice(2).length ? process.argv.slice(2) : ['16', '19', '22'];
for (const v of versions) {
  const clang = `/usr/lib/llvm-${v}/bin/clang`;
  const llc = `/usr/lib/llvm-${v}/bin/llc`;
  for (const corpus of CORPORA) {
    const files = corpus.files();
    let kernels = 0,
      equal = 0;
    const refused = new Map<string, number>();
    const both = new Map<string, number>();
    const differ: string[] = [];
    const started = Date.now();
    for (const f of files) {
      const o = await compareCudaFile(clang, llc, f.path, f.flags);
      if (o.refused) refused.set(o.refused.replace(/'[^']*'/g, "'…'"), (refused.get(o.refused) ?? 0) + 1);
      if (o.bothRefuse) both.set(o.bothRefuse.replace(/'[^']*'/g, "'…'"), (both.get(o.bothRefuse) ?? 0) + 1);
      for (const [k, why] of o.kernels) {
        kernels++;
        if (why === undefined) equal++;
        else differ.push(`${f.name} ${k}: ${why}`);
      }
    }
    console.log(
      `clang-${v} ${corpus.name}: ${files.length} files, ${kernels} kernels compared, ${equal} equal ` +
        `(${((Date.now() - started) / 1000).toFixed(0)} s)`,
    );
    for (const [why, n] of refused) console.log(`  ${n} files refused by clang only: ${why}`);
    for (const [why, n] of both) console.log(`  ${n} files refused by clang and kernarg: ${why}`);
    for (const d of differ.slice(0, 20)) console.log(`  DIFFERS ${d}`);
  }
}
