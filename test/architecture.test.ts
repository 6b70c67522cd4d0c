// The shape of the code, checked: no import circles, the top-level rooms of src/ in one order,
// targets apart from each other and from the code generators and frontends, emitters apart from
// targets, a core that uses nothing of Node (so it runs in a browser), and no source file past
// 500 lines.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { type FileFacts, ROOT, circles, longestChain, readGraph } from './support/import-graph.js';

const graph = readGraph();

/** The host runtimes and the CLI: the only files that may use Node. */
const HOST = ['src/cli/', 'src/runtime/'];
const isHost = (f: string) => HOST.some((h) => f.startsWith(h));
const targetOf = (f: string) => /^src\/targets\/([^/]+)\//.exec(f)?.[1];

test('the import graph has no circles', () => {
  assert.deepEqual(circles(graph), []);
  // The longest chain, for reading in the test log.
  const chain = longestChain(graph);
  assert.ok(chain.length > 1);
  console.log(`longest import chain (${chain.length} files): ${chain.join(' -> ')}`);
});

test('no target imports another target', () => {
  const bad: string[] = [];
  for (const [f, facts] of graph) {
    const own = targetOf(f);
    if (!own) continue;
    for (const i of facts.imports) {
      const other = targetOf(i);
      if (other && other !== own) bad.push(`${f} -> ${i}`);
    }
  }
  assert.deepEqual(bad, []);
});

test('no emitter imports a target', () => {
  const bad = [...graph].flatMap(([f, facts]) =>
    f.startsWith('src/emit/')
      ? facts.imports.filter((i) => i.startsWith('src/targets/')).map((i) => `${f} -> ${i}`)
      : [],
  );
  assert.deepEqual(bad, []);
});

test('the core imports no Node module and names no Node global', () => {
  const bad: string[] = [];
  for (const [f, facts] of graph) {
    if (isHost(f)) continue;
    for (const p of facts.packages) bad.push(`${f} imports '${p}'`);
    for (const g of facts.nodeGlobals) bad.push(`${f} uses Node's '${g}'`);
    for (const i of facts.imports) if (isHost(i)) bad.push(`${f} imports the host file ${i}`);
  }
  assert.deepEqual(bad, []);
});

test('the checker sees Node where it is used', () => {
  // The host files do use Node: if the checks above read nothing, this fails.
  assert.ok(graph.get('src/runtime/capture.ts')!.packages.includes('node:fs'));
  assert.ok(graph.get('src/runtime/capture.ts')!.nodeGlobals.includes('process'));
});

/** The top-level room of a source file: its first folder under src/, or the file itself (`lower.ts`). */
const roomOf = (f: string) => f.split('/')[1]!;

/** The room graph: one node per top-level room, an arrow where any file of one imports a file of another. */
function roomGraph(): Map<string, FileFacts> {
  const rooms = new Map<string, Set<string>>();
  for (const [f, facts] of graph) {
    const from = roomOf(f);
    const to = rooms.get(from) ?? rooms.set(from, new Set()).get(from)!;
    for (const i of facts.imports) if (roomOf(i) !== from) to.add(roomOf(i));
  }
  return new Map([...rooms].map(([r, to]) => [r, { imports: [...to].sort(), packages: [], nodeGlobals: [] }]));
}

test('the top-level rooms of src/ form a DAG', () => {
  const rooms = roomGraph();
  assert.deepEqual(circles(rooms), []);
  // The checker sees the rooms: the targets use the plan types below them, the code generator uses the targets.
  assert.ok(rooms.get('targets')?.imports.includes('abi'));
  assert.ok(rooms.get('codegen')?.imports.includes('targets'));
  // One arrow back up (the plan types reading the registry, as abi/read-plan.ts once did) is a circle the check finds.
  const planted = new Map(rooms).set('abi', {
    ...rooms.get('abi')!,
    imports: [...rooms.get('abi')!.imports, 'targets'],
  });
  assert.notDeepEqual(circles(planted), []);
});

/** Targets describe a calling convention; reading source and generating code are the wings above and beside them. */
test('targets import no code generator and no frontend', () => {
  const bad: string[] = [];
  for (const [f, facts] of graph) {
    if (!f.startsWith('src/targets/')) continue;
    for (const i of facts.imports)
      if (i.startsWith('src/codegen/') || i.startsWith('src/frontend/')) bad.push(`${f} -> ${i}`);
  }
  assert.deepEqual(bad, []);
});

/** The most lines a TypeScript source file may have: past it, a file holds more than one job to read at once. */
const MAX_LINES = 500;

/** Every TypeScript file (declarations included) under the given folders, as paths relative to the repository. */
function typescriptFiles(...dirs: string[]): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.[cm]?tsx?$/.test(e.name)) out.push(relative(ROOT, p));
    }
  };
  for (const d of dirs) walk(join(ROOT, d));
  return out.sort();
}

/** A text's lines as an editor numbers them: a final newline ends the last line, it does not start another. */
const lineCount = (text: string) => (text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0));

/** Each file past MAX_LINES, with its count. */
const overLimit = (files: readonly (readonly [string, string])[]) =>
  files.filter(([, text]) => lineCount(text) > MAX_LINES).map(([f, text]) => `${f}: ${lineCount(text)} lines`);

test('every TypeScript source file under src/ and web/src/ is at most 500 lines', () => {
  // The check is not blind: a file one line past the limit is told with its count, one at the limit is not, and
  // the count is the editor's with or without a final newline.
  const lines = (n: number) => 'x\n'.repeat(n);
  assert.deepEqual(
    overLimit([
      ['at.ts', lines(500)],
      ['past.ts', lines(501)],
      ['past-unended.ts', lines(500) + 'x'],
    ]),
    ['past.ts: 501 lines', 'past-unended.ts: 501 lines'],
  );
  assert.equal(lineCount(''), 0);
  const files = typescriptFiles('src', 'web/src');
  // The walk sees both trees: the core, the host runtimes and the page.
  for (const f of ['src/lower.ts', 'src/runtime/cuda/host.ts', 'web/src/main.ts']) assert.ok(files.includes(f), f);
  assert.deepEqual(overLimit(files.map((f) => [f, readFileSync(join(ROOT, f), 'utf8')])), []);
});
