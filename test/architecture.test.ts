// The shape of the code, checked: no import circles, targets apart from each other, emitters apart
// from targets, and a core that uses nothing of Node (so it runs in a browser).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { circles, longestChain, readGraph } from './support/import-graph.js';

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
