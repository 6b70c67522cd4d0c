// tinytc v0.4.0's lit programs through kernarg, file by file: parsed and checked (or refused, and
// on which line), the number of kernels, and whether kernarg generates code for them or which
// instructions and types it does not lower yet (KA2420). `npx tsx scripts/tinytc04-lit.ts`.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { compileTinytc } from '../src/codegen/compile-tinytc.js';
import { SourceFile } from '../src/diagnostics/source.js';
import { DATA_LAYOUTS } from '../src/layout/data-layout.js';

const LIT = join(import.meta.dirname, '..', 'test', 'tinytc-lit');
const FLASH_DEFS = '$dtype = f32\n$headdim = 64\n$block_size = 512\n';
const totals = { files: 0, checked: 0, refused: 0, generated: 0 };
for (const dir of ['spv', 'check-ir', 'examples']) {
  console.log(`\n${dir}/`);
  for (const f of readdirSync(join(LIT, dir)).sort()) {
    const text = (f.endsWith('.template') ? FLASH_DEFS : '') + readFileSync(join(LIT, dir, f), 'utf8');
    const r = compileTinytc(new SourceFile(f, text), { layout: DATA_LAYOUTS.spir64, version: '0.4' });
    const errors = r.diagnostics.items.filter((d) => d.severity === 'error');
    totals.files++;
    let what: string;
    if (errors.length) {
      totals.refused++;
      const first = errors[0];
      const line = first.span ? first.span.file.lineCol(first.span.start).line : 0;
      what = `refused: line ${line}: ${first.message} [${first.code}]`;
    } else {
      totals.checked++;
      if (r.compiled) totals.generated++;
      const reasons = [...new Set((r.notLowered ?? []).map((d) => d.message.replace(/ is not lowered.*/, '')))];
      what =
        `${r.module?.functions.length ?? 0} ` +
        `kernel(s), ${r.compiled ? 'code generated' : `no code: ${reasons.join(', ')}`}`;
    }
    console.log(`  ${f.padEnd(34)} ${what}`);
  }
}
console.log(
  `\n${totals.files} files: ${totals.checked} parse and check, ${totals.refused} refused; code ` +
    `for ${totals.generated} of the ${totals.checked}`,
);
