// Records ocloc's `.ze_info` for the cached zebin oracle set (test/oracle/zebin-ocloc/): the
// hand-written cases, the fixtures, generated programs and a real-world corpus sample, each for
// the devices its case lists. `npm test` compares kernarg with these records and re-runs ocloc on
// a rotating few of them (test/oracle/zebin-ocloc.test.ts); re-record on purpose after a change
// of ocloc:   npx tsx scripts/zebin-record.ts [case ...]
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { programSpec, renderBatch, samples } from '../test/support/gen.js';
import { ZEBIN_CASES, ZEBIN_RECORDS, caseSource, recordPath } from '../test/support/zebin-cases.js';
import { runOcloc } from '../test/support/zebin-oracle.js';

// The generated programs are stored as text: the record must not move when the generator does.
const { values } = samples(programSpec, 60, 27);
for (let i = 0; i < 3; i++)
  writeFileSync(
    join(ZEBIN_RECORDS, '..', `generated-${i}.cl`),
    renderBatch(values.slice(i * 20, i * 20 + 20), i * 20, 'z'),
  );

/** The lines of `.ze_info` under `kernels:` that name a kernel or belong to its payload or binding table. */
function extract(zeInfo: string): string {
  const out: string[] = [];
  let section = '';
  let keep = false;
  for (const line of zeInfo.split('\n')) {
    if (/^\S/.test(line)) {
      section = line;
      if (line.startsWith('version:') || line.startsWith('kernels:')) out.push(line);
      continue;
    }
    if (!section.startsWith('kernels:')) continue;
    if (line.startsWith('  - name:')) {
      out.push(line);
      keep = false;
    } else if (/^    \S/.test(line)) {
      keep = line.startsWith('    payload_arguments:') || line.startsWith('    binding_table_indices:');
      if (keep) out.push(line);
    } else if (keep) out.push(line);
  }
  return `${out.join('\n')}\n`;
}

mkdirSync(ZEBIN_RECORDS, { recursive: true });
const only = process.argv.slice(2);
for (const c of ZEBIN_CASES) {
  if (only.length && !only.includes(c.name)) continue;
  const { text, path, flags } = caseSource(c);
  for (const device of c.devices) {
    const r = runOcloc(text, device, 'CL2.0', flags, path);
    if ('refused' in r) throw new Error(`ocloc refused ${c.name} for ${device}: ${r.refused}`);
    // What the comparison reads, in the section's own YAML: each kernel's name, `payload_arguments`
    // and `binding_table_indices` (the execution environment and `kernels_misc_info` left out).
    const kept = extract(r.zeInfo);
    writeFileSync(recordPath(c.name, device), kept);
    console.log(`${c.name} ${device}: ${kept.length} bytes`);
  }
}
