import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { Context } from '../src/runtime/opencl/host.js';
import { kernel } from '../src/runtime/opencl/compile-kernel.js';
import { testDevice } from './support/device.js';

const ADD = 'kernel void add(global int *a, int i) { a[i % 64] += i + 1; }';

test('async: 10,000 launches in flight on an in-order queue, one wait, correct sums', async (t) => {
  const ctx = testDevice(t);
  if (!ctx) return;
  const k = await kernel(ADD, 'add', { context: ctx, cache: false });
  const a = ctx.buffer(new Int32Array(64));
  const events = [];
  for (let i = 0; i < 10_000; i++) events.push(k.launch({ args: { a, i }, global: [1] }));
  const last = await events[events.length - 1];
  assert.equal(last.kernel, 'add');
  assert.ok(
    events.every((e) => e.done),
    'on an in-order queue the last launch finishing means every launch has',
  );
  const expect = new Int32Array(64);
  for (let i = 0; i < 10_000; i++) expect[i % 64] += i + 1;
  assert.deepEqual(a.read(new Int32Array(64)), expect);
  // The event-free path: 10,000 enqueues, one asynchronous finish.
  for (let i = 0; i < 10_000; i++) k.enqueue({ args: { a, i }, global: [1] });
  await ctx.idle();
  for (let i = 0; i < 64; i++) expect[i] *= 2;
  assert.deepEqual(a.read(new Int32Array(64)), expect);
  // Every event awaited on its own: each resolves, in launch order, to its own profile.
  const again = [];
  for (let i = 0; i < 10_000; i++) again.push(k.launch({ args: { a, i }, global: [1] }));
  const order: number[] = [];
  const profiles = await Promise.all(again.map((e, i) => e.then((p) => (order.push(i), p))));
  assert.equal(profiles.length, 10_000);
  assert.deepEqual(
    order,
    Array.from({ length: 10_000 }, (_, i) => i),
  );
  for (let i = 1; i < profiles.length; i++)
    assert.ok(profiles[i].start >= profiles[i - 1].end, `in-order: launch ${i} starts after ${i - 1} ends`);
  for (const e of [...events, ...again]) e.release();
  k.dispose();
  ctx.dispose();
});

test('async: launch() returns before the kernel has run; await gives queued ≤ submit ≤ start ≤ end in ns', async (t) => {
  const ctx = testDevice(t);
  if (!ctx) return;
  const slow =
    'kernel void spin(global float *a, int n) { float x = a[0]; for (int i = 0; i < n; i++) x = x * 0.999999f + ' +
    '1e-7f; a[get_global_id(0)] = x; }';
  const k = await kernel(slow, 'spin', { context: ctx, cache: false });
  const a = ctx.buffer(new Float32Array(4).fill(1));
  const ev = k.launch({ args: { a, n: 20_000_000 }, global: [1] });
  assert.equal(ev.done, false, 'a 20-million-step loop cannot have finished when launch() returns');
  const p = await ev;
  assert.ok(ev.done);
  assert.ok(
    p.queued <= p.submit && p.submit <= p.start && p.start <= p.end,
    JSON.stringify(p, (_, v) => (typeof v === 'bigint' ? v.toString() : v)),
  );
  assert.ok(p.end - p.start > 1000n, 'the loop takes more than a microsecond');
  assert.equal(p.timeMs, Number(p.end - p.start) / 1e6);
  const r = await k.run({ args: { a, n: 10 }, global: [4] });
  assert.ok(r.timeMs >= 0);
  k.dispose();
  ctx.dispose();
});

test('async: an out-of-order queue runs a chain of launches in the order their event dependencies give', async (t) => {
  const probe = testDevice(t);
  if (!probe) return;
  probe.dispose();
  const ctx = Context.open(process.env.KERNARG_DEVICE, { outOfOrder: true });
  const src = `kernel void fill(global int *a, int v) { a[get_global_id(0)] = v; }
kernel void twice(global int *a) { a[get_global_id(0)] *= 2; }
kernel void plus(global int *a, int v) { a[get_global_id(0)] += v; }`;
  const fill = await kernel(src, 'fill', { context: ctx, cache: false });
  const twice = await kernel(src, 'twice', { context: ctx, cache: false });
  const plus = await kernel(src, 'plus', { context: ctx, cache: false });
  const a = ctx.buffer(4 * 256);
  for (let round = 0; round < 20; round++) {
    const e1 = fill.launch({ args: { a, v: round }, global: [256] });
    const e2 = twice.launch({ args: { a }, global: [256], waitFor: [e1] });
    const e3 = plus.launch({ args: { a, v: 3 }, global: [256], waitFor: [e2] });
    const e4 = twice.launch({ args: { a }, global: [256], waitFor: [e3] });
    await e4;
    // (round * 2 + 3) * 2 only if the four ran in dependency order.
    assert.deepEqual([...a.read(new Int32Array(256))], new Array(256).fill((round * 2 + 3) * 2), `round ${round}`);
  }
  for (const k of [fill, twice, plus]) k.dispose();
  ctx.dispose();
});

test('async: a warm enqueue allocates nothing (at most one scavenge over 400,000 launches with a 1 MiB young generation); the event path is seen to allocate', (t) => {
  const probe = testDevice(t);
  if (!probe) return;
  probe.dispose();
  const run = (mode: string) => {
    // Pretenuring off, as in pack-alloc.test.ts: every young allocation shows as scavenges.
    const r = spawnSync(
      process.execPath,
      [
        '--max-semi-space-size=1',
        '--no-allocation-site-pretenuring',
        '--import',
        'tsx',
        'test/support/launch-alloc-probe.ts',
        mode,
      ],
      { encoding: 'utf8' },
    );
    assert.equal(r.status, 0, r.stderr);
    return JSON.parse(r.stdout.trim().split('\n').pop()!) as { calls: number; gcs: number; heapGrowth: number };
  };
  const free = run('enqueue');
  assert.ok(free.gcs <= 1, `enqueue: ${JSON.stringify(free)}`);
  assert.ok(free.heapGrowth < 256 * 1024, `enqueue: ${JSON.stringify(free)}`);
  // The detector works: launch() makes an event object per call, and that shows.
  const evented = run('launch');
  assert.ok(evented.gcs > 0, `launch: ${JSON.stringify(evented)}`);
  // launchAndWait makes no event object: only each event handle's BigInt (24 bytes) is left behind.
  const waited = run('wait');
  assert.ok(waited.gcs * 2 < evented.gcs, `wait: ${JSON.stringify(waited)}, launch: ${JSON.stringify(evented)}`);
  assert.ok(waited.heapGrowth < 1 << 20, `wait: ${JSON.stringify(waited)}`);
});

test('launchAndWait returns the run time and releases its event; a failing launch names the kernel', (t) => {
  const ctx = testDevice(t);
  if (!ctx) return;
  return (async () => {
    const k = await kernel('kernel void fill(global int *a, int v) { a[get_global_id(0)] = v; }', 'fill', {
      context: ctx,
      cache: false,
    });
    const a = ctx.buffer(256 * 4);
    const ms = k.launchAndWait({ args: { a, v: 9 }, global: [256] });
    assert.ok(Number.isFinite(ms) && ms >= 0, `run time ${ms}`);
    assert.deepEqual([...a.read(new Int32Array(256))], new Array(256).fill(9));
    assert.throws(() => k.launchAndWait({ args: { a, v: 1 }, global: [256], local: [7] }), /fill/);
    k.dispose();
    a.dispose();
    ctx.dispose();
  })();
});

test('arguments left unchanged are not set again, yet every launch runs with its own values, buffers and local sizes', (t) => {
  const ctx = testDevice(t);
  if (!ctx) return;
  return (async () => {
    const src =
      'kernel void put(global int *a, int i, int v, local int *tmp) { tmp[0] = v; barrier(CLK_LOCAL_MEM_FENCE); ' +
      'a[i] = tmp[0] + (int)get_local_size(0); }';
    const k = await kernel(src, 'put', { context: ctx, cache: false });
    const bufs = [ctx.buffer(new Int32Array(8)), ctx.buffer(new Int32Array(8))];
    const expect = [new Int32Array(8), new Int32Array(8)];
    // Each step changes one thing (or nothing) against the one before: the buffer, the index, the value, the local
    // size.
    const steps: [number, number, number, number][] = [
      [0, 0, 5, 4],
      [0, 0, 5, 4],
      [1, 0, 5, 4],
      [1, 1, 5, 4],
      [1, 1, 6, 4],
      [0, 1, 6, 8],
      [0, 2, 6, 8],
      [1, 2, 7, 8],
      [1, 3, 7, 16],
      [0, 3, 7, 16],
    ];
    for (const [b, i, v, tmp] of steps) {
      k.launchAndWait({ args: { a: bufs[b], i, v, tmp: { local: tmp } }, global: [1] });
      expect[b][i] = v + 1;
      assert.deepEqual(bufs[0].read(new Int32Array(8)), expect[0], `after a[${i}] = ${v} in buffer ${b}`);
      assert.deepEqual(bufs[1].read(new Int32Array(8)), expect[1], `after a[${i}] = ${v} in buffer ${b}`);
    }
    // A launch refused by the device leaves the next one correct.
    assert.throws(
      () => k.launchAndWait({ args: { a: bufs[0], i: 4, v: 9, tmp: { local: 1 << 30 } }, global: [1] }),
      /put|tmp/,
    );
    k.launchAndWait({ args: { a: bufs[0], i: 4, v: 9, tmp: { local: 4 } }, global: [1] });
    expect[0][4] = 10;
    assert.deepEqual(bufs[0].read(new Int32Array(8)), expect[0]);
    k.dispose();
    ctx.dispose();
  })();
});
