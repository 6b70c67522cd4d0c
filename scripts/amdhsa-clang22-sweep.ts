// Every file of the real-world corpora against clang-22 on amdhsa with kernarg's defaults
// (`--llvm 22`, code object 6): the full sweep of what test/oracle/amdhsa-clang22-corpus.test.ts samples.
// Run: npx tsx scripts/amdhsa-clang22-sweep.ts   (needs scripts/fetch-corpus.sh, clang-22 and llc-22)
import { compareLlvm22 } from '../test/corpus/amdhsa-llvm22.js';
import { CORPORA } from '../test/corpus/corpora.js';
import { CLANG22_AMDHSA, LLC22, findTool } from '../test/support/tools.js';

const clang = findTool(CLANG22_AMDHSA);
const llc = findTool(LLC22);
if (!clang || !llc) {
  console.error('needs clang-22 and llc-22');
  process.exit(2);
}
const started = Date.now();
let differ = 0;
for (const corpus of CORPORA) {
  const files = corpus.files();
  let kernels = 0;
  let equal = 0;
  const refused: string[] = [];
  for (const file of files) {
    const outcome = await compareLlvm22(clang, llc, file);
    if (outcome.refused) refused.push(`${file.name}: ${outcome.refused}`);
    for (const [kernel, why] of outcome.kernels) {
      kernels++;
      if (why === undefined) equal++;
      else console.log(`  differs: ${corpus.name} ${file.name} ${kernel}: ${why}`);
    }
  }
  differ += kernels - equal;
  console.log(
    `${corpus.name}: ${files.length} files, ${refused.length} refused by clang-22, ${kernels} kernels ` +
      `compared, ${equal} equal`,
  );
  for (const r of refused) console.log(`  refused: ${r}`);
}
console.log(`took ${((Date.now() - started) / 1000).toFixed(0)} s`);
process.exit(differ ? 1 : 0);
