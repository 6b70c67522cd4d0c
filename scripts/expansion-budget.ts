// The macro-expansion budget's figures (src/frontend/opencl-c/macro-expand.ts):
//  1. what real kernels need of it: every .cl file under .corpus/ and test/ preprocessed (its own
//     folder on the include path), the tokens expansion made, the largest needs listed;
//  2. what a runaway expansion costs: each shape of test/support/runaway-macros.ts at 2.6 KB,
//     100 KB and 1 MB, in CPU ms (user + system, one process) and per budget token.
//   node --import tsx scripts/expansion-budget.ts [--skip-corpus]
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { DiagnosticBag } from '../src/diagnostics/diagnostic.js';
import { SourceFile } from '../src/diagnostics/source.js';
import { expansionBudgetFor } from '../src/frontend/opencl-c/macro-expand.js';
import { SkippingPreprocessor } from '../src/frontend/opencl-c/skip-preprocessor.js';
import { lower } from '../src/lower.js';
import { RUNAWAY_CASES } from '../test/support/runaway-macros.js';

/** The budget left when a run ends (protected in the class: read here for the figure only). */
class MeasuredPreprocessor extends SkippingPreprocessor {
  get left(): number {
    return this.expansionBudget;
  }
}

if (!process.argv.includes('--skip-corpus')) {
  const files = execFileSync('find', ['-L', '.corpus', 'test', '-name', '*.cl'], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .filter(Boolean);
  const host = {
    readFile: (p: string) => (existsSync(p) && statSync(p).isFile() ? readFileSync(p, 'utf8') : undefined),
  };
  const rows: { used: number; chars: number; file: string }[] = [];
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const pp = new MeasuredPreprocessor(
      host,
      { std: 'CL2.0', target: { name: 'spir64', pointerBits: 64 }, includeDirs: [dirname(file)] },
      new DiagnosticBag(),
    );
    try {
      pp.run(new SourceFile(file, text));
    } catch {
      continue; // the token path reads what the character-level reading gave up on; its need is the same
    }
    rows.push({ used: expansionBudgetFor(text.length) - pp.left, chars: text.length, file });
  }
  rows.sort((a, b) => b.used - a.used);
  console.log(`${rows.length} files; largest needs (tokens, main-file characters, tokens per character, budget):`);
  for (const r of rows.slice(0, 8))
    console.log(`  ${r.used}\t${r.chars}\t${(r.used / r.chars).toFixed(2)}\t${expansionBudgetFor(r.chars)}\t${r.file}`);
}

console.log('runaway expansions (CPU ms; µs per budget token; limit 1 s per 100 KB, at least 1 s):');
for (const c of RUNAWAY_CASES) {
  for (const bytes of [0, 100_000, 1_000_000]) {
    const src = c.make(bytes);
    const before = process.cpuUsage();
    const r = lower('k.cl', src, { readFile: () => undefined }, { target: 'opencl', format: 'table' });
    const d = process.cpuUsage(before);
    const ms = (d.user + d.system) / 1000;
    const limit = 1000 * Math.max(1, src.length / 100_000);
    const codes = [...new Set(r.diagnostics.map((x) => x.code))].join(',');
    console.log(
      `  ${c.name.padEnd(40)} ${String(src.length).padStart(8)} B  ${ms.toFixed(0).padStart(5)} ms ` +
        ` ${((1000 * ms) / expansionBudgetFor(src.length)).toFixed(2)} µs/token  ${ms < limit ? 'ok' : 'OVER'} ` +
        ` ${codes}`,
    );
  }
}
