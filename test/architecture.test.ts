// The shape of the code, checked: no import circles, the top-level rooms of src/ in one order,
// targets apart from each other and from the code generators and frontends, emitters apart from
// targets, and a core that uses nothing of Node (so it runs in a browser).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type FileFacts, circles, longestChain, readGraph } from './support/import-graph.js';

const graph = readGraph();

/** The host runtimes and the CLI: the only files that may use Node (the packer is portable). */
const HOST = ['src/cli/', 'src/runtime/'];
const isPortable = (f: string) => f.startsWith('src/runtime/pack/');
const isHost = (f: string) => HOST.some((h) => f.startsWith(h)) && !isPortable(f);
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
  const bad = [...graph].flatMap(([f, facts]) => (f.startsWith('src/emit/') ? facts.imports.filter((i) => i.startsWith('src/targets/')).map((i) => `${f} -> ${i}`) : []));
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

/**
 * Room-to-room imports that still run back up, each with why it is there and what removes it. The
 * rooms form a DAG only without these; an entry whose imports are gone fails the test below, so the
 * list only shrinks.
 */
const ROOM_EDGES_STILL_BACKWARDS: readonly { readonly from: string; readonly to: string; readonly reason: string }[] = [
  { from: 'abi', to: 'targets', reason: 'abi/read-plan.ts finds a plan\'s target in the registry; it belongs above the targets' },
  { from: 'targets', to: 'runtime', reason: 'each target\'s pack.ts uses the packer in runtime/pack/, until the packer moves below the targets' },
  { from: 'targets', to: 'codegen', reason: 'the target contract still renders tinytc code (Target.tinytcFormats, RenderContext.tinytc)' },
  { from: 'build-input', to: 'lower.ts', reason: 'build-input/lower-build.ts drives lower() over a build input; it belongs above lower.ts' },
];

/** The room graph: one node per top-level room, an arrow where any file of one imports a file of another. */
function roomGraph(skip: ReadonlySet<string>): Map<string, FileFacts> {
  const rooms = new Map<string, Set<string>>();
  for (const [f, facts] of graph) {
    const from = roomOf(f);
    const to = rooms.get(from) ?? rooms.set(from, new Set()).get(from)!;
    for (const i of facts.imports) if (roomOf(i) !== from && !skip.has(`${from} -> ${roomOf(i)}`)) to.add(roomOf(i));
  }
  return new Map([...rooms].map(([r, to]) => [r, { imports: [...to].sort(), packages: [], nodeGlobals: [] }]));
}

test('the top-level rooms of src/ form a DAG but for the named backward arrows, each still there', () => {
  const allowed = new Set(ROOM_EDGES_STILL_BACKWARDS.map((e) => `${e.from} -> ${e.to}`));
  assert.equal(allowed.size, ROOM_EDGES_STILL_BACKWARDS.length, 'an arrow listed twice');
  assert.deepEqual(circles(roomGraph(allowed)), []);
  const all = roomGraph(new Set());
  const gone = ROOM_EDGES_STILL_BACKWARDS.filter((e) => !all.get(e.from)?.imports.includes(e.to)).map((e) => `${e.from} -> ${e.to}`);
  assert.deepEqual(gone, [], 'these arrows are gone: strike them from ROOM_EDGES_STILL_BACKWARDS');
  // Without the list the rooms do make a circle, else the list would be needless.
  assert.notDeepEqual(circles(all), []);
});

/**
 * Target files that still import a code generator or a frontend, each with why. Targets describe a
 * calling convention; reading source and generating code are the wings above and beside them.
 */
const TARGET_IMPORTS_STILL_ALLOWED: readonly { readonly file: string; readonly imports: string; readonly reason: string }[] = [
  { file: 'src/targets/target.ts', imports: 'src/codegen/compile-tinytc.ts', reason: 'RenderContext.tinytc carries the compiled tinytc program into render()' },
  { file: 'src/targets/vulkan/index.ts', imports: 'src/codegen/spirv/index.ts', reason: 'the spirv and spirv-asm formats of tinytc input render through the vulkan record' },
];

test('targets import no code generator and no frontend, but for the named files, each still there', () => {
  const allowed = new Set(TARGET_IMPORTS_STILL_ALLOWED.map((e) => `${e.file} -> ${e.imports}`));
  const seen = new Set<string>();
  const bad: string[] = [];
  for (const [f, facts] of graph) {
    if (!f.startsWith('src/targets/')) continue;
    for (const i of facts.imports) {
      if (!i.startsWith('src/codegen/') && !i.startsWith('src/frontend/')) continue;
      const arrow = `${f} -> ${i}`;
      if (allowed.has(arrow)) seen.add(arrow);
      else bad.push(arrow);
    }
  }
  assert.deepEqual(bad, []);
  assert.deepEqual([...allowed].filter((a) => !seen.has(a)), [], 'these imports are gone: strike them from TARGET_IMPORTS_STILL_ALLOWED');
});
