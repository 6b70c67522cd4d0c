// The shape of the code, checked: no import circles, the top-level rooms of src/ in one order,
// targets apart from each other and from the code generators and frontends, emitters apart from
// targets, and a core that uses nothing of Node (so it runs in a browser).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type FileFacts, circles, longestChain, readGraph } from './support/import-graph.js';

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
