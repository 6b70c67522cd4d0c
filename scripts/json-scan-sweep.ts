// Sweep: the args-file scanner (src/runtime/args/json-text.ts) against JSON.parse, the oracle of what
// JSON is, on many generated texts (valid ones, and ones cut and spliced with JSON's punctuation).
// `npx tsx scripts/json-scan-sweep.ts [count]` prints how many agree; npm test runs a sample of this.
import fc from 'fast-check';
import { scanJson } from '../src/runtime/args/json-text.js';

const count = Number(process.argv[2] ?? 200000);
const texts = fc.oneof(
  fc.json({ depthSize: 'medium' }),
  fc
    .tuple(
      fc.json(),
      fc.nat(),
      fc.nat(4),
      fc.constantFrom(
        '',
        ',',
        ']',
        '}',
        '"',
        ':',
        '{',
        '[',
        ' ',
        '\\',
        '\\u12',
        '-',
        '0',
        '01',
        '.',
        'e',
        '+',
        '\n',
        '\t',
        "'",
        'NaN',
        'tru',
        'null',
        '\u0001',
      ),
    )
    .map(([t, at, cut, put]) => {
      const i = at % (t.length + 1);
      return t.slice(0, i) + put + t.slice(i + cut);
    }),
);
let valid = 0;
let invalid = 0;
const disagree: string[] = [];
for (const text of fc.sample(texts, count)) {
  let ok = true;
  try {
    JSON.parse(text);
  } catch {
    ok = false;
  }
  if (ok) valid++;
  else invalid++;
  if ((scanJson(text) === undefined) !== ok) disagree.push(text);
}
console.log(
  `${count} texts (${valid} valid JSON, ${invalid} not): the scanner agrees with JSON.parse ` +
    `on ${count - disagree.length}`,
);
for (const d of disagree.slice(0, 10)) console.log(`disagrees: ${JSON.stringify(d)}`);
process.exitCode = disagree.length ? 1 : 0;
