// kernarg diff: comparing two ABIs of a generated file of N kernels against the lowering the diff
// cannot avoid (the same two `lower` calls, side by side in the same run). The ratio is what the
// comparison, classification and JSON rendering add. Prints peak memory.
// Run: npm run bench -- diff   (N=2000 kernels by default)
import { performance } from 'node:perf_hooks';
import { diffViews } from '../dist/diff/compare.js';
import { diffToJson } from '../dist/diff/render.js';
import { abiView } from '../dist/diff/view.js';
import { type LowerOptions, lower } from '../dist/lower.js';

const N = Number(process.env.N ?? 2000);

function source(n: number, extra: boolean): string {
  const parts = ['typedef struct { float3 p; int id; char tag; } Item;\n'];
  for (let i = 0; i < n; i++) {
    const more = extra && i % 5 === 0 ? ', int added' : '';
    parts.push(
      `kernel void k${i}(global float* out, constant Item* items, local float* tile, Item it, uint n${more}) { out[0] = it.p.x; }\n`,
    );
  }
  return parts.join('');
}

const host = { readFile: () => undefined };
const CASES: { name: string; old: LowerOptions; neu: LowerOptions; extra: boolean }[] = [
  {
    name: 'amdhsa, LLVM 16 CO4 vs 19 CO5',
    old: { target: 'amdhsa', amdhsa: { llvm: 16, codeObject: 4 } },
    neu: { target: 'amdhsa' },
    extra: false,
  },
  {
    name: 'vulkan, v1 vs v2 (an argument added to every 5th kernel)',
    old: { target: 'vulkan' },
    neu: { target: 'vulkan' },
    extra: true,
  },
  { name: 'opencl vs amdhsa (two targets)', old: { target: 'opencl' }, neu: { target: 'amdhsa' }, extra: false },
];
const oldText = source(N, false);
const newText = source(N, true);
const best = (f: () => void, runs = 3) => {
  let b = Infinity;
  for (let r = 0; r < runs; r++) {
    const t0 = performance.now();
    f();
    b = Math.min(b, performance.now() - t0);
  }
  return b;
};
console.log(`${N} kernels; ms, best of 3; baseline: the two lower() calls the diff makes`);
console.log(
  ['case'.padEnd(58), 'baseline'.padStart(9), 'diff'.padStart(9), '×baseline'.padStart(10), 'changes'.padStart(8)].join(
    ' ',
  ),
);
for (const c of CASES) {
  const newSource = c.extra ? newText : oldText;
  const base = best(() => {
    lower('a.cl', oldText, host, { ...c.old, format: 'json' });
    lower('b.cl', newSource, host, { ...c.neu, format: 'json' });
  });
  let changes = 0;
  const full = best(() => {
    const a = lower('a.cl', oldText, host, { ...c.old, format: 'json' });
    const b = lower('b.cl', newSource, host, { ...c.neu, format: 'json' });
    const r = diffViews(abiView(a.plan!), abiView(b.plan!));
    diffToJson(
      { file: 'a.cl', target: c.old.target, options: [] },
      { file: 'b.cl', target: c.neu.target, options: [] },
      r,
    );
    changes = r.changes.length;
  });
  console.log(
    [
      c.name.padEnd(58),
      base.toFixed(0).padStart(9),
      full.toFixed(0).padStart(9),
      (full / base).toFixed(2).padStart(10),
      String(changes).padStart(8),
    ].join(' '),
  );
}
console.log(`peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`);
