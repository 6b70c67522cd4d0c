// The full round trip of the AMDGPU code object reader: every valid fixture and generated kernels,
// compiled by clang-16 (code objects 4, 5), clang-19 (4, 5, 6) and clang-22 (4, 5, 6), read back by
// kernarg and by llvm-readelf-22 --notes, against the plan kernarg predicts from the source.
// Prints kernels read, equal and differing per generation and code object. `npm test` runs a sample.
import { fixtureFiles } from '../test/support/fixtures.js';
import { STDS, programSpec, renderBatch, samples } from '../test/support/gen.js';
import { amdhsaRoundTrip, compileCodeObject, type Source } from '../test/support/reader-roundtrip.js';
import { findTool, CLANG, CLANG19, CLANG22_AMDHSA, READELF22 } from '../test/support/tools.js';
import type { AmdhsaCodeObject, AmdhsaLlvm } from '../src/targets/amdhsa/lower.js';

const generatedPrograms = Number(process.argv[2] ?? 40);
const readelf = findTool(READELF22);
if (!readelf) throw new Error('llvm-readelf-22 not found');
const GENERATIONS: readonly [AmdhsaLlvm, string[], AmdhsaCodeObject[]][] = [
  [16, CLANG, [4, 5]],
  [19, CLANG19, [4, 5, 6]],
  [22, CLANG22_AMDHSA, [4, 5, 6]],
];
const fixtures: Source[] = fixtureFiles().map((f) => ({
  text: f.text,
  std: f.std,
  path: f.path,
  includeDirs: f.includeDirs,
  defines: f.defines,
  clangArgs: f.clangArgs,
  host: f,
}));
const { values, seed } = samples(programSpec, generatedPrograms, 7000);
const generated: Source[] = [];
for (let b = 0; b < values.length; b += 10)
  generated.push({ text: renderBatch(values.slice(b, b + 10), b, 'r'), std: STDS[(b / 10) % 3] });
for (const [llvm, names, cos] of GENERATIONS) {
  const clang = findTool(names);
  if (!clang) throw new Error(`${names[0]} not found`);
  for (const co of cos) {
    for (const [corpus, sources] of [
      ['fixtures', fixtures],
      [`generated (seed ${seed})`, generated],
    ] as const) {
      let kernels = 0,
        equal = 0,
        files = 0;
      const shown: string[] = [];
      const started = performance.now();
      for (const s of sources) {
        let object: Uint8Array;
        try {
          object = compileCodeObject(clang, s, co);
        } catch {
          continue; // clang refuses the source: nothing to read.
        }
        files++;
        const r = amdhsaRoundTrip(object, s, llvm, co, readelf);
        kernels += r.kernels;
        if (r.differences.length === 0) equal += r.kernels;
        else shown.push(...r.differences.slice(0, 3));
      }
      console.log(
        `clang-${llvm} code object ${co}, ${corpus}: ${files} files, ${kernels} kernels, ${equal} in files with ` +
          `every slot equal, ${shown.length ? shown.length + ' differences' : 'no differences'} ` +
          `(${((performance.now() - started) / 1000).toFixed(1)} s)`,
      );
      for (const d of shown.slice(0, 5)) console.log(`  ${d}`);
    }
  }
}
