// Records ocloc's `.ze_info` for the cached zebin oracle set (test/oracle/zebin-ocloc/): the
// hand-written cases, the fixtures, generated programs and a real-world corpus sample, each for
// the devices its case lists. `npm test` compares kernarg with these records and re-runs ocloc on
// a rotating few of them (test/oracle/zebin-ocloc.test.ts); re-record on purpose after a change
// of ocloc:   npx tsx scripts/zebin-record.ts
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { programSpec, renderBatch, samples } from '../test/support/gen.js';
import { ZEBIN_CASES, ZEBIN_RECORDS, caseSource, recordPath } from '../test/support/zebin-cases.js';
import { runOcloc } from '../test/support/zebin-oracle.js';

// The generated programs are stored as text: the record must not move when the generator does.
const { values } = samples(programSpec, 60, 27);
for (let i = 0; i < 3; i++) writeFileSync(join(ZEBIN_RECORDS, '..', `generated-${i}.cl`), renderBatch(values.slice(i * 20, i * 20 + 20), i * 20, 'z'));

mkdirSync(ZEBIN_RECORDS, { recursive: true });
for (const c of ZEBIN_CASES) {
  const { text, path, flags } = caseSource(c);
  for (const device of c.devices) {
    const r = runOcloc(text, device, 'CL2.0', flags, path);
    if ('refused' in r) throw new Error(`ocloc refused ${c.name} for ${device}: ${r.refused}`);
    writeFileSync(recordPath(c.name, device), r.zeInfo);
    console.log(`${c.name} ${device}: ${r.zeInfo.length} bytes`);
  }
}
