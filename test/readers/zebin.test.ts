// The zebin reader on ocloc's zebins (recorded by scripts/readers-record-binaries.ts): its plan
// written back as `.ze_info` equals the section ocloc wrote, entry for entry; on pvc it equals the
// plan kernarg predicts from the source; and its YAML subset refuses what it does not read.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { readBinary } from '../../src/readers/index.js';
import { emitZeInfo } from '../../src/targets/zebin/ze-info.js';
import { parseZeInfoYaml } from '../../src/readers/ze-info-yaml.js';
import { ByteError } from '../../src/readers/byte-error.js';
import { zebinRoundTrip } from '../support/reader-roundtrip.js';
import { elfSection, entryText, payloadArguments } from '../support/zebin-oracle.js';

const ZEBINS = join(import.meta.dirname, 'zebins');
const CASES = join(import.meta.dirname, '..', 'oracle', 'zebin-ocloc');
const NAMES = ['hand-pointers', 'hand-values', 'hand-images', 'hand-builtins'];
const DEVICES = ['pvc', 'tgllp', 'dg2'] as const;
const recorded = NAMES.flatMap((name) =>
  DEVICES.map((device) => ({ name, device, file: join(ZEBINS, `${name}.${device}.zebin`) })),
).filter((c) => existsSync(c.file));

test('every recorded zebin reads into a plan whose ze-info is the section ocloc wrote, entry for entry', () => {
  assert.ok(recorded.length >= 10, `only ${recorded.length} zebins`);
  let kernels = 0;
  for (const c of recorded) {
    const bytes = new Uint8Array(readFileSync(c.file));
    const r = readBinary(bytes, c.file);
    assert.deepEqual(r.diagnostics, [], c.file);
    assert.ok(r.plan?.target === 'zebin');
    assert.equal(r.plan.device, c.device);
    const theirs = payloadArguments(new TextDecoder().decode(elfSection(bytes, '.ze_info')));
    const ours = payloadArguments(emitZeInfo(r.plan));
    assert.deepEqual([...ours.keys()], [...theirs.keys()], c.file);
    for (const [k, entries] of theirs)
      assert.deepEqual(ours.get(k)!.map(entryText), entries.map(entryText), `${c.file} ${k}`);
    kernels += theirs.size;
  }
  assert.ok(kernels >= 80, `only ${kernels} kernels`);
});

test('on pvc the plan read from each zebin equals the plan kernarg predicts from its source, every slot', () => {
  for (const c of recorded.filter((r) => r.device === 'pvc')) {
    const r = zebinRoundTrip(
      new Uint8Array(readFileSync(c.file)),
      { text: readFileSync(join(CASES, `${c.name}.cl`), 'utf8'), std: 'CL2.0' },
      'pvc',
    );
    assert.deepEqual(r.differences, [], c.file);
    assert.ok(r.kernels > 0);
  }
});

test('on tgllp and dg2 the only differences from the predicted plan are the reviewed buffer promotions (test/deliberate/zebin-buffer-promotion.md)', () => {
  for (const c of recorded.filter((r) => r.device !== 'pvc')) {
    const r = zebinRoundTrip(
      new Uint8Array(readFileSync(c.file)),
      { text: readFileSync(join(CASES, `${c.name}.cl`), 'utf8'), std: 'CL2.0' },
      c.device,
    );
    for (const d of r.differences)
      assert.match(
        d,
        /slot \d+: predicted \w+:\d+:data:(buffer_address|arg_bypointer):\d+:8:\d+:[-a-z]+:(global|constant):.*, read \w+:\d+:data:(arg_bypointer|buffer_address):\d+:8:/,
        `${c.file}: ${d}`,
      );
  }
});

test('the .ze_info YAML reader: what ocloc writes, and a message at the byte for what it does not read', () => {
  const yaml = (s: string) => parseZeInfoYaml(new TextEncoder().encode(s), 1000);
  const doc = yaml(
    "---\nversion: '1.20'\nkernels:\n  - name: k\n    required: [ 8, 1, 1 ]\n    payload_arguments:\n      - " +
      'arg_type: local_size\n        offset: 12\n...\n',
  );
  assert.equal(doc.kind, 'map');
  assert.deepEqual(
    JSON.parse(
      JSON.stringify(doc, (k, v) => (k === 'at' ? undefined : v)),
    ).entries[1].value.items[0].entries[1].value.items.map((i: { value: string }) => i.value),
    ['8', '1', '1'],
  );
  const refuse = (s: string) => {
    try {
      yaml(s);
      return 'read';
    } catch (e) {
      assert.ok(e instanceof ByteError);
      return `${e.diagnosticMessage.code} ${e.args.join(' | ')}`;
    }
  };
  assert.equal(refuse('a: 1\n   b: 2\n'), 'KA7031 1008 | 2 | indented more than the keys before it');
  assert.equal(refuse("a: 'open\n"), 'KA7031 1003 | 1 | an unterminated quoted scalar');
  assert.equal(refuse('a: &anchor 1\n'), "KA7031 1003 | 1 | '&' starts YAML kernarg's .ze_info reader does not read");
  assert.equal(refuse('\ta: 1\n'), 'KA7031 1000 | 1 | a tab in the indentation');
  assert.match(
    refuse(
      `${'a:\n'.split('').join('')}${Array.from({ length: 80 }, (_, i) => `${' '.repeat(i + 1)}k${i}:\n`).join('')}`,
    ),
    /KA7031 .* nested deeper than 64 levels/,
  );
});
