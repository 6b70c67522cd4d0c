// docs/architecture.md is kept true: every room of src/ has its paragraph in the code map, every
// "Architecture Invariant" names the tests that enforce it and those tests exist; and the invariants
// no other test held: every target record complete, and the json format the JSON emitter's alone.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { emitJson } from '../src/emit/json.js';
import { memoryHost } from '../src/frontend/opencl-c/index.js';
import { lower, lowerPlan } from '../src/lower.js';
import { FORMAT_NAMES } from '../src/targets/format-names.js';
import { TARGET_RECORDS } from '../src/targets/index.js';
import { TARGET_NAMES } from '../src/targets/target-names.js';
import { readGraph } from './support/import-graph.js';

const ROOT = join(import.meta.dirname, '..');
const MAP = 'docs/architecture.md';
const map = readFileSync(join(ROOT, MAP), 'utf8');

/** One invariant: its sentence and the tests it names as [file, title]. */
interface Invariant {
  readonly sentence: string;
  readonly tests: readonly (readonly [string, string])[];
}

const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();

/** The paragraphs of a document that state an invariant, with the tests each names (`file` › “title”). */
function invariantsOf(doc: string): Invariant[] {
  return doc
    .split(/\n\s*\n/)
    .map(oneLine)
    .filter((p) => p.includes('Architecture Invariant:'))
    .map((p) => ({
      sentence: p,
      tests: [...p.matchAll(/`(test\/[\w/.-]+\.test\.ts)` › “([^”]+)”/g)].map((m) => [m[1]!, m[2]!] as const),
    }));
}

/** The titles of a test file's tests, as written in `test('…'` (quoted or a template without substitutions). */
function testTitles(file: string): Set<string> {
  const source = readFileSync(join(ROOT, file), 'utf8');
  const titles = new Set<string>();
  for (const m of source.matchAll(/\btest\(\s*(?:'((?:\\.|[^'\\])*)'|"((?:\\.|[^"\\])*)"|`([^`$]*)`)/g)) {
    titles.add(oneLine((m[1] ?? m[2] ?? m[3]!).replace(/\\(.)/g, '$1')));
  }
  return titles;
}

/** What is wrong with a document's invariants: one that names no test, a test file or title that does not exist. */
function invariantProblems(doc: string): string[] {
  const problems: string[] = [];
  for (const inv of invariantsOf(doc)) {
    if (!inv.tests.length) problems.push(`names no test: ${inv.sentence}`);
    for (const [file, title] of inv.tests) {
      if (!existsSync(join(ROOT, file))) problems.push(`no file ${file}: ${inv.sentence}`);
      else if (!testTitles(file).has(oneLine(title))) problems.push(`${file} has no test “${title}”`);
    }
  }
  return problems;
}

test('every Architecture Invariant names at least one test, and every test it names exists', () => {
  const invariants = invariantsOf(map);
  assert.ok(invariants.length >= 10, `${MAP} states ${invariants.length} invariants`);
  assert.deepEqual(invariantProblems(map), []);
  // The check is not blind: an invariant without a test, or naming a title or file that is not there, is told.
  const planted = [
    '**Architecture Invariant:** nothing is tested.',
    '**Architecture Invariant:** a title that is not there. Test: `test/architecture.test.ts` › “no such test”.',
    '**Architecture Invariant:** a file that is not there. Test: `test/no-such.test.ts` › “one code per message”.',
  ].join('\n\n');
  assert.equal(invariantProblems(planted).length, 3);
  // A title that wraps across lines in the document still matches the one-line title in the test file.
  assert.deepEqual(
    invariantProblems('**Architecture Invariant:** x. Test: `test/docs.test.ts` › “one code\nper message”.'),
    [],
  );
});

test('every top-level room of src/ has a paragraph in the code map', () => {
  const headings = new Set([...map.matchAll(/^### `([^`]+)`$/gm)].map((m) => m[1]));
  const rooms = readdirSync(join(ROOT, 'src')).map((name) =>
    statSync(join(ROOT, 'src', name)).isDirectory() ? `src/${name}/` : `src/${name}`,
  );
  assert.ok(rooms.length > 10);
  const missing = [...rooms, 'web/', 'test/', 'bench/', 'scripts/'].filter((r) => !headings.has(r));
  assert.deepEqual(missing, [], `${MAP}: a ### \`room\` paragraph for each`);
  // And no paragraph for a room that is gone.
  const gone = [...headings].filter((h) => h!.startsWith('src/') && !rooms.includes(h!));
  assert.deepEqual(gone, []);
});

test("the code map lists src/'s rooms bottom-up: a room imports only rooms listed before it", () => {
  const order = [...map.matchAll(/^### `src\/([^`/]+)\/?`$/gm)].map((m) => m[1]!);
  const at = new Map(order.map((r, i) => [r, i]));
  const upward: string[] = [];
  let arrows = 0;
  for (const [file, facts] of readGraph()) {
    const from = file.split('/')[1]!;
    for (const i of facts.imports) {
      const to = i.split('/')[1]!;
      if (to === from) continue;
      arrows++;
      if (!(at.get(to)! < at.get(from)!)) upward.push(`${file} -> ${i}`);
    }
  }
  assert.ok(arrows > 50, 'the import graph is read');
  assert.deepEqual(upward, [], `${MAP}: list the imported room before the importing one`);
});

test('every target record is complete: one record per name of TARGET_NAMES, in order, every member present, table first among its formats', () => {
  assert.deepEqual(
    TARGET_RECORDS.map((t) => t.name),
    [...TARGET_NAMES],
  );
  const methods = [
    'layout',
    'predefines',
    'optionProblem',
    'flagConflict',
    'lower',
    'table',
    'view',
    'readPlan',
  ] as const;
  for (const t of TARGET_RECORDS) {
    for (const m of methods) assert.equal(typeof t[m], 'function', `${t.name}.${m}`);
    assert.ok(t.title.length > 0 && t.summary.length > 0, `${t.name}: title and summary`);
    assert.ok(Array.isArray(t.flags), `${t.name}.flags`);
    assert.ok(t.vocabulary.length > 0, `${t.name}.vocabulary`);
    assert.equal(t.formats[0], 'table', `${t.name}: table is the default format`);
    for (const f of t.formats) assert.ok((FORMAT_NAMES as readonly string[]).includes(f), `${t.name}: format ${f}`);
    assert.equal(new Set(t.formats).size, t.formats.length, `${t.name}: a format listed once`);
  }
});

test("every target's json format is the JSON emitter's, byte for byte", () => {
  const source = [
    'typedef struct { float a; int n; char c; } P;',
    'kernel void k(global const float *x, global float *y, P p, local float *t, float4 v, uint n) { }',
    'kernel void img(read_only image2d_t im, sampler_t s, global int *o) { }',
  ].join('\n');
  for (const t of TARGET_RECORDS) {
    const options = { target: t.name, format: 'json' } as const;
    const r = lower('k.cl', source, memoryHost({}), options);
    const { plan } = lowerPlan('k.cl', source, memoryHost({}), options);
    // Every target takes this source; one that refuses it says why.
    if (!r.output) assert.fail(`${t.name}: ${r.diagnostics.map((d) => d.message).join('; ')}`);
    assert.ok(plan, t.name);
    assert.equal(r.output, emitJson(plan), t.name);
    assert.ok(r.output.includes('"kernels"'), t.name);
  }
});
