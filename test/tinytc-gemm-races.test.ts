// Races in the generated OpenCL C GEMMs, checked without a device: the kernel runs as C under ThreadSanitizer with
// one thread per work-item and a pthread barrier per work-group (support/work-group-threads.ts), so a store to a
// local tile that a barrier does not order against another work-item's read, or a C element two work-groups
// write, is reported whatever order a device happens to run them in. The cases are the overlap test's odd
// sizes under the OpenCL C a CPU device (PoCL) is given, where one run once disagreed with the reference;
// scripts/gemm-race-sweep.ts runs every overlap and staged variant on all of that test's cases.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type RaceCase, checkOnThreads, cpuOpenclC, oddGemm } from './support/gemm-on-threads.js';
import { batchedGemm } from './support/tinytc-gemm-cases.js';
import { CLANG19, requireTool } from './support/tools.js';
import { parseOpenclKnobs } from '../src/codegen/opencl-knobs.js';

const ODD1 = oddGemm('f32', 37, 23, 19, 't', 't', true);
const ODD0 = oddGemm('f64', 65, 63, 61, 'n', 'n', false);
const CLEAN = { races: 0, wrong: null };
const BARRIER = 'barrier(CLK_LOCAL_MEM_FENCE);';

test('overlap-all, the odd size that once failed on PoCL (37 × 23 × 19, t.t, dynamic): no race, C right', (t) => {
  const clang = requireTool(t, CLANG19);
  if (!clang) return;
  assert.deepEqual(checkOnThreads(clang, ODD1, cpuOpenclC(ODD1.ir, 'overlap-all'), 'overlap-all 37×23×19'), CLEAN);
});

test('overlap-k16, the next K tile in flight and a partial last one (65 × 63 × 61): no race, C right', (t) => {
  const clang = requireTool(t, CLANG19);
  if (!clang) return;
  const cl = cpuOpenclC(ODD0.ir, 'overlap-k16');
  assert.match(cl, /if \(kernarg_more\)/, 'the next tile is loaded ahead');
  assert.deepEqual(checkOnThreads(clang, ODD0, cl, 'overlap-k16 65×63×61'), CLEAN);
});

test('two work-groups of the batched GEMM at once (32³ f32, overlap-all): no race', (t) => {
  const clang = requireTool(t, CLANG19);
  if (!clang) return;
  const c = { ...(batchedGemm('f32', 32, 2) as unknown as RaceCase), howmany: 2 };
  assert.deepEqual(checkOnThreads(clang, c, cpuOpenclC(c.ir, 'overlap-all'), 'overlap-all 32³ × 2'), CLEAN);
});

test('tile=2x4: blocks walked one after another, overlap-k16, a partial last K tile (65 × 63 × 61): no race', (t) => {
  const clang = requireTool(t, CLANG19);
  if (!clang) return;
  const cl = cpuOpenclC(ODD0.ir, 'overlap-k16', parseOpenclKnobs('vload=2,aligned,tile=2x4'));
  assert.deepEqual(checkOnThreads(clang, ODD0, cl, 'overlap-k16 tile=2x4 65×63×61'), CLEAN);
});

test('the checker finds the race where a barrier is missing: the tile barrier of the K loop taken out', (t) => {
  const clang = requireTool(t, CLANG19);
  if (!clang) return;
  const cl = cpuOpenclC(ODD1.ir, 'overlap-all');
  // The K loop's barrier is the last one: without it the next block's first tile overwrites the one still read.
  const at = cl.lastIndexOf(BARRIER);
  const cut = cl.slice(0, at) + cl.slice(at + BARRIER.length);
  // TSAN reports it (about 20 races); were a report lost, the values the race leaves would still differ.
  const v = checkOnThreads(clang, ODD1, cut, 'no loop barrier');
  assert.ok(v.races > 0 || v.wrong !== null, 'the race is caught');
});
