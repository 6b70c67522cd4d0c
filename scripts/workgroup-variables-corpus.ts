// The kernel-scope `local` variables kernarg finds (the facts clspv's WorkgroupVariableSize rests
// on) compared with clang-16's over the real-world corpora: per file clang accepts, clang's
// `@kernel.name = internal addrspace(3) global <type>` list against kernarg's (same variables, same
// order) and kernarg's sharing key against clang's LLVM type texts (one type or two, every pair).
//   npx tsx scripts/workgroup-variables-corpus.ts
import { readFileSync } from 'node:fs';
import { SourceFile } from '../src/diagnostics/source.js';
import { compileOpenCL } from '../src/frontend/opencl-c/index.js';
import { DATA_LAYOUTS } from '../src/layout/data-layout.js';
import { llvmTypeKey } from '../src/targets/vulkan/workgroup-variables.js';
import { CORPORA } from '../test/corpus/corpora.js';
import { frontendFlags } from '../test/corpus/frontend-flags.js';
import { runClang } from '../test/support/tools.js';

const host = {
  readFile: (p: string) => {
    try {
      return readFileSync(p, 'utf8');
    } catch {
      return undefined;
    }
  },
};
for (const corpus of CORPORA) {
  let files = 0,
    refused = 0,
    equalFiles = 0,
    variables = 0,
    withLocals = 0;
  const differences: string[] = [];
  for (const file of corpus.files()) {
    files++;
    let ir: string;
    try {
      ir = runClang(
        'clang-16',
        '',
        ['-x', 'cl', '-cl-std=CL1.2', '-target', 'spir', '-O0', '-emit-llvm', '-S', ...file.flags],
        file.path,
      );
    } catch {
      refused++;
      continue;
    }
    const theirs = new Map<string, string>();
    for (const m of ir.matchAll(
      /^@"?([\w.$]+)"? = internal addrspace\(3\) global (.+?) (?:undef|poison), align \d+$/gm,
    ))
      theirs.set(m[1], m[2]);
    const r = compileOpenCL(new SourceFile(file.path, readFileSync(file.path, 'utf8')), host, {
      std: 'CL1.2',
      layout: DATA_LAYOUTS.spir,
      ...frontendFlags(file.flags),
    });
    const ours = (r.module?.functions ?? [])
      .filter((f) => f.isKernel)
      .flatMap((f) =>
        (f.localVariables ?? []).map((v) => ({
          id: `${f.name}.${v.name}`,
          key: llvmTypeKey(v.type, DATA_LAYOUTS.spir),
        })),
      );
    let same = JSON.stringify(ours.map((v) => v.id)) === JSON.stringify([...theirs.keys()]);
    if (same)
      for (const a of ours)
        for (const b of ours) if ((a.key === b.key) !== (theirs.get(a.id) === theirs.get(b.id))) same = false;
    if (same) equalFiles++;
    else
      differences.push(
        `${file.name}: kernarg [${ours.map((v) => v.id).join(' ')}] clang [${[...theirs.keys()].join(' ')}]`,
      );
    variables += theirs.size;
    if (theirs.size) withLocals++;
  }
  console.log(
    `${corpus.name}: ${files} files, ${refused} refused by clang, ${equalFiles} of ${files - refused} equal ` +
      `(${withLocals} with kernel-scope locals, ${variables} variables)`,
  );
  for (const d of differences.slice(0, 10)) console.log(`  differs: ${d.slice(0, 400)}`);
}
