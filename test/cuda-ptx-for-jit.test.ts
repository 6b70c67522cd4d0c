// The PTX the CUDA host gives the driver's JIT (src/runtime/cuda/ptx-for-jit.ts): clang's nvcl PTX
// with `local` pointer parameters (`.ptr .shared`) loses only the `.shared` of those declarations,
// so the parameters keep their offsets and sizes and the body is untouched.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { ptxForDriverJit } from '../src/runtime/cuda/ptx-for-jit.js';
import { readPtx } from '../src/readers/ptx.js';

const GPU_CUDA = join(import.meta.dirname, '..', 'scripts', 'gpu-cuda');
const localPtx = readFileSync(join(GPU_CUDA, 'local-kernels.ptx'), 'utf8');

test('clang nvcl PTX: each `.ptr .shared` parameter becomes `.ptr`, every other line is the same', () => {
  const { text, sharedPointerParams } = ptxForDriverJit(localPtx);
  const before = localPtx.split('\n');
  const after = text.split('\n');
  assert.equal(after.length, before.length);
  const changed = before.flatMap((l, i) => (l === after[i] ? [] : [[l, after[i]]]));
  assert.equal(changed.length, sharedPointerParams);
  assert.ok(sharedPointerParams >= 3, 'the test PTX has three local pointer parameters');
  for (const [from, to] of changed) {
    assert.match(from, /^\s*\.param \.u64 \.ptr \.shared \.align \d+ \w+,?$/);
    assert.equal(to, from.replace(' .shared', ''));
  }
  assert.doesNotMatch(text, /\.ptr\s+\.shared/);
  assert.match(text, /\.shared \.align 4 \.b8 locals_\$_fixed\[20\];/, 'static shared arrays stay');
});

test('the rewritten PTX declares the same parameters at the same offsets and sizes', () => {
  const read = (ptx: string) => {
    const r = readPtx(new TextEncoder().encode(ptx), 'local-kernels.ptx');
    assert.ok(r.plan, r.diagnostics?.map((d) => d.message).join('\n'));
    return r.plan.kernels.map((k) => ({ name: k.name, args: k.args.map((a) => [a.offset, a.size]) }));
  };
  assert.deepEqual(read(ptxForDriverJit(localPtx).text), read(localPtx));
});

test('PTX without shared pointer parameters goes to the JIT unchanged', () => {
  const ptx = readFileSync(join(GPU_CUDA, 'launch-kernels.ptx'), 'utf8');
  const r = ptxForDriverJit(ptx);
  assert.equal(r.sharedPointerParams, 0);
  assert.equal(r.text, ptx);
  // Only the `.param … .ptr .shared` pattern is touched: a body's `st.shared` stays. A commented-out declaration
  // matches the pattern too and loses its word, which changes nothing the JIT reads.
  const body = '// .param .u64 .ptr .shared .align 4 x\n\tst.shared.u32 [%rd1], %r1;\n';
  const r2 = ptxForDriverJit(body);
  assert.equal(r2.sharedPointerParams, 1);
  assert.equal(r2.text, '// .param .u64 .ptr .align 4 x\n\tst.shared.u32 [%rd1], %r1;\n');
});
