// tinytc v0.4's bool parameters on the host: they travel as a uchar 0 or 1 on every target, and the runtimes
// (TinytcKernel.launch on OpenCL and Vulkan, `kernarg run --args`) take true or false for them, or 0 and 1,
// refusing anything else with the kernel and argument named; gen-ts types them `boolean | 0 | 1`.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runCliOnFiles } from './support/cli-in-memory.js';
import { PackError } from '../src/pack/errors.js';
import { tinytcKernel } from '../src/runtime/tinytc.js';
import { vulkanTinytcKernel } from '../src/runtime/vulkan/tinytc.js';
import { testDevice } from './support/device.js';
import { testVulkan } from './support/vulkan-device.js';

/** out[0] = x where %on holds, out[1] = x where %off holds. */
const FLAGS = `func @flags(%on: bool, %off: bool, %x: i32, %out: memref<i32x2>) {
  %c0 = constant 0 : index
  %c1 = constant 1 : index
  if %on {
    store %x, %out[%c0]
  }
  if %off {
    store %x, %out[%c1]
  }
}
`;

const args = (on: unknown, off: unknown) => ({ on, off, x: 7, out: { data: new Int32Array(2).fill(-1), shape: [2] } });
/** What each launch must leave: x where the flag is true. */
const want = (on: boolean, off: boolean) => [on ? 7 : -1, off ? 7 : -1];
const GIVEN: readonly [unknown, unknown, boolean, boolean][] = [
  [true, false, true, false],
  [false, true, false, true],
  [1, true, true, true],
  [0, false, false, false],
];
const BAD: readonly [unknown, RegExp][] = [
  [2, /number 2/],
  ['true', /the string "true"/],
  [null, /null/],
  [undefined, /nothing/],
];

function launches(launch: (a: ReturnType<typeof args>) => void): void {
  for (const [on, off, a, b] of GIVEN) {
    const x = args(on, off);
    launch(x);
    assert.deepEqual([...x.out.data], want(a, b), `${String(on)}, ${String(off)}`);
  }
  for (const [bad, shown] of BAD) {
    const x = args(true, bad);
    assert.throws(
      () => launch(x),
      (e: unknown) =>
        e instanceof PackError &&
        e.kernel === 'flags' &&
        e.arg === 'off' &&
        /a bool argument takes true or false \(or 0 or 1\)/.test(e.message) &&
        shown.test(e.message),
    );
  }
}

test('PoCL (OpenCL C): a bool takes true, false, 0 or 1, and refuses anything else naming kernel and argument', (t) => {
  const ctx = testDevice(t);
  if (!ctx) return;
  try {
    const k = tinytcKernel(ctx, FLAGS, 'flags');
    launches((a) => k.launch({ args: a }));
  } finally {
    ctx.dispose();
  }
});

test('lavapipe (Vulkan SPIR-V): a bool takes true, false, 0 or 1, and refuses anything else', (t) => {
  const ctx = testVulkan(t);
  if (!ctx) return;
  try {
    const k = vulkanTinytcKernel(ctx, FLAGS, 'flags');
    launches((a) => k.launch({ args: a }));
  } finally {
    ctx.dispose();
  }
});

test('kernarg run --args: JSON true and false (and 0, 1) for bool arguments; anything else refused (exit 1)', (t) => {
  const ctx = testDevice(t);
  if (!ctx) return;
  ctx.dispose();
  const run = (on: unknown, off: unknown) =>
    runCliOnFiles(
      ['run', 'f.ir', '--kernel', 'flags', '--args', 'a.json', '--device', process.env.KERNARG_DEVICE ?? ''],
      {
        'f.ir': FLAGS,
        'a.json': JSON.stringify({ on, off, x: 7, out: { memref: { type: 'i32', data: [-1, -1], shape: [2] } } }),
      },
    );
  for (const [on, off, a, b] of GIVEN) {
    const r = run(on, off);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout).args.out, want(a, b));
  }
  for (const bad of [2, 'yes', [1], null]) {
    const r = run(bad, false);
    assert.equal(r.code, 1, r.stdout);
    assert.match(r.stderr, /kernel 'flags', argument 'on': a bool argument takes true or false \(or 0 or 1\)/);
  }
});

test('gen-ts types a bool parameter `boolean | 0 | 1`', () => {
  const r = runCliOnFiles(['gen-ts', 'f.ir'], { 'f.ir': FLAGS });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /readonly on: boolean \| 0 \| 1;\s+readonly off: boolean \| 0 \| 1;\s+readonly x: number;/);
});
