// The command line with tinytc v0.4 (--tinytc, diff, run). A tinytc v0.4 GEMM and its v0.3 twin give the same results through `kernarg run` on PoCL (OpenCL C)
// and lavapipe (Vulkan SPIR-V), and both equal a JS reference: the v0.4 program reaches the same
// code generators through its v0.3 rewrite, and its calling convention (a group's size slot, shapes
// before strides) is filled by the runtimes from the same logical arguments.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runCliWith } from '../src/cli/main.js';
import { runCliOnFiles } from './support/cli-in-memory.js';
import { memoryHost } from '../src/frontend/opencl-c/index.js';
import { lower } from '../src/lower.js';
import { testDevice } from './support/device.js';
import { testVulkan } from './support/vulkan-device.js';

const V04 = `func @gemm(%alpha: f32, %A: group<memref<f32x8x4>x?>, %B: memref<f32x4x6x?>, %beta: f32, %C: memref<f32x8x?x?,strided<1,8,48>>) {
  %gid = group_id.x : index
  %a = load %A[%gid] : memref<f32x8x4>
  %zero = constant 0 : index
  %six = constant 6 : index
  %b = subview %B[0:4,0:6,%gid] : memref<f32x4x6>
  %c = subview %C[0:8,%zero:%six,%gid] : memref<f32x8x?,strided<1,8>>
  gemm.n.n %alpha, %a, %b, %beta, %c
  %v = load %c[%zero,%zero] : f32
  %two = constant 2.0 : f32
  %w = mul %v, %two : f32
  %one = constant 1 : index
  %big = greater_than %w, %two : bool
  if %big {
    store %w, %c[%one,%zero]
  }
}
`;

const V03 = `func @gemm(%alpha: f32, %A: group<memref<f32x8x4>>, %B: memref<f32x4x6x?>, %beta: f32, %C: memref<f32x8x?x?,strided<1,8,48>>) {
  %gid = group_id
  %a = load %A[%gid] : group<memref<f32x8x4>>
  %b = subview %B[:,:,%gid] : memref<f32x4x6x?>
  %c = subview %C[:,0:6,%gid] : memref<f32x8x?x?,strided<1,8,48>>
  gemm.n.n %alpha, %a, %b, %beta, %c : f32, memref<f32x8x4>, memref<f32x4x6>, f32, memref<f32x8x6,strided<1,8>>
  %v = load %c[0, 0] : memref<f32x8x6,strided<1,8>>
  %w = arith.mul %v, 2.0 : f32
  %big = cmp.gt %w, 2.0 : f32
  if %big {
    store %w, %c[1, 0] : memref<f32x8x6,strided<1,8>>
  }
}
`;

const HOWMANY = 3;
const a = (k: number) => Array.from({ length: 32 }, (_, i) => ((i * 7 + k * 3) % 11) - 5);
const b = Array.from({ length: 24 * HOWMANY }, (_, i) => ((i * 5) % 9) - 4);
const c = Array.from({ length: 48 * HOWMANY }, (_, i) => (i % 7) - 3);
const ARGS = JSON.stringify({
  alpha: 1.5,
  A: { group: Array.from({ length: HOWMANY }, (_, k) => ({ type: 'f32', data: a(k), shape: [8, 4] })) },
  B: { memref: { type: 'f32', data: b, shape: [4, 6, HOWMANY] } },
  beta: 0.5,
  C: { memref: { type: 'f32', data: c, shape: [8, 6, HOWMANY] } },
});

/** What both programs compute, in doubles (every value here is exact in f32). */
function reference(): number[] {
  const out = [...c];
  for (let k = 0; k < HOWMANY; k++) {
    for (let j = 0; j < 6; j++) {
      for (let i = 0; i < 8; i++) {
        let s = 0;
        for (let l = 0; l < 4; l++) s += a(k)[i + 8 * l] * b[l + 4 * j + 24 * k];
        out[i + 8 * j + 48 * k] = 1.5 * s + 0.5 * c[i + 8 * j + 48 * k];
      }
    }
    const w = out[48 * k] * 2;
    if (w > 2) out[1 + 48 * k] = w;
  }
  return out;
}

function run(ir: string, api: 'opencl' | 'vulkan'): number[] {
  const files: Record<string, string> = { 'g.ir': ir, 'args.json': ARGS };
  const device = api === 'vulkan' ? (process.env.KERNARG_VK_DEVICE ?? '') : (process.env.KERNARG_DEVICE ?? '');
  const {
    code,
    stdout: out,
    stderr: err,
  } = runCliOnFiles(
    [
      'run',
      'g.ir',
      '--kernel',
      'gemm',
      '--args',
      'args.json',
      '--howmany',
      String(HOWMANY),
      '--api',
      api,
      '--device',
      device,
    ],
    files,
  );
  assert.equal(code, 0, err);
  return JSON.parse(out).args.C;
}

test('PoCL (OpenCL C): the v0.4 GEMM and its v0.3 twin give the same results, and the reference', (t) => {
  const ctx = testDevice(t);
  if (!ctx) return;
  ctx.dispose();
  const want = reference();
  assert.deepEqual(run(V03, 'opencl'), want);
  assert.deepEqual(run(V04, 'opencl'), want);
});

test('lavapipe (Vulkan SPIR-V): the v0.4 GEMM and its v0.3 twin give the same results, and the reference', (t) => {
  const vk = testVulkan(t);
  if (!vk) return;
  vk.dispose();
  const want = reference();
  assert.deepEqual(run(V03, 'vulkan'), want);
  assert.deepEqual(run(V04, 'vulkan'), want);
});

test('kernarg run refuses a v0.4 program it cannot generate with KA2420, naming the instruction', (t) => {
  const ctx = testDevice(t);
  if (!ctx) return;
  ctx.dispose();
  const files: Record<string, string> = {
    // A barrier inside foreach: kernarg's loop over the iterations may run different counts in different work-items.
    'p.ir':
      'func @p(%a: memref<f32x4>) {\n  %c0 = constant 0 : index\n  %c4 = constant 4 : index\n' +
      '  foreach (%i) = (%c0), (%c4) {\n    barrier.global\n  }\n}\n',
    'args.json': JSON.stringify({ a: { memref: { type: 'f32', data: [1, 2, 3, 4], shape: [4] } } }),
  };
  let err = '';
  const io = {
    stdout: () => undefined,
    stderr: (s: string) => (err += s),
    readFile: (p: string) => files[p],
    writeFile: () => undefined,
    color: false,
  };
  assert.equal(
    runCliWith(
      ['run', 'p.ir', '--kernel', 'p', '--args', 'args.json', '--device', process.env.KERNARG_DEVICE ?? ''],
      io as never,
    ),
    1,
  );
  assert.match(err, /'barrier inside foreach' is not lowered to OpenCL C or SPIR-V by kernarg yet.*\[KA2420\]/);
});

// min, max and abs (which v0.3 lacks: a comparison and an if), group_id.x as i32 (a cast of v0.3's), a name defined in both branches of an if
// (v0.4 scopes names to regions), and foreach over constants, on PoCL against a JS reference.
const MINMAX = `func @mm(%a: memref<i32x8>, %b: memref<f32x8>) {
  %lo = constant 0 : index
  %hi = constant 8 : index
  %g = group_id.x : i32
  foreach (%i) = (%lo), (%hi) {
    %x = load %a[%i] : i32
    %c3 = constant 3 : i32
    %y = load %b[%i] : f32
    %half = constant 0.5 : f32
    %ay = abs %y : f32
    %z = min %ay, %half : f32
    %big = greater_than %x, %c3 : bool
    if %big {
      %c100 = constant 100 : i32
      %v = add %c100, %g : i32
      store %v, %a[%i]
    } else {
      %v = max %x, %c3 : i32
      store %v, %a[%i]
    }
    store %z, %b[%i]
  }
}
`;

test('PoCL: v0.4 min, max, abs, an i32 group id, names reused in sibling regions and foreach give the reference results', (t) => {
  const ctx = testDevice(t);
  if (!ctx) return;
  ctx.dispose();
  const a = [-4, 0, 3, 4, 7, 2, 3, 9];
  const b = [0.25, 1, -2, 0.5, 3, -0.75, 0.5, 2];
  const files: Record<string, string> = {
    'm.ir': MINMAX,
    'args.json': JSON.stringify({
      a: { memref: { type: 'i32', data: a, shape: [8] } },
      b: { memref: { type: 'f32', data: b, shape: [8] } },
    }),
  };
  const {
    code,
    stdout: out,
    stderr: err,
  } = runCliOnFiles(
    ['run', 'm.ir', '--kernel', 'mm', '--args', 'args.json', '--device', process.env.KERNARG_DEVICE ?? ''],
    files,
  );
  assert.equal(code, 0, err);
  const r = JSON.parse(out).args;
  assert.deepEqual(
    r.a,
    a.map((x) => (x > 3 ? 100 : Math.max(x, 3))),
  );
  assert.deepEqual(
    r.b,
    b.map((y) => Math.min(Math.abs(y), 0.5)),
  );
});

test('--tinytc 0.3|0.4 forces the version where the text does not tell; usage errors exit 2', () => {
  const ir = 'func @f(%a: memref<f32x?x?x?>) {}';
  const sig = (v?: '0.3' | '0.4') =>
    lower('k.ir', ir, memoryHost({}), {
      target: 'opencl',
      format: 'signatures',
      ...(v ? { tinytc: { version: v } } : {}),
    }).output;
  assert.equal(
    sig(),
    'kernel void f(global float* a, long a_shape0, long a_shape1, long a_stride1, long a_shape2, long a_stride2)\n',
  );
  assert.equal(sig('0.3'), sig());
  assert.equal(
    sig('0.4'),
    'kernel void f(global float* a, long a_shape0, long a_shape1, long a_shape2, long a_stride1, long a_stride2)\n',
  );
  let err = '';
  const io = {
    stdout: () => undefined,
    stderr: (s: string) => (err += s),
    readFile: (p: string) => (p === 'k.ir' ? ir : p === 'k.cl' ? 'kernel void k() {}' : undefined),
    color: false,
  };
  assert.equal(runCliWith(['lower', 'k.ir', '--target', 'opencl', '--tinytc', '0.5'], io as never), 2);
  assert.match(err, /--tinytc takes 0\.3 or 0\.4, not '0\.5'/);
  assert.equal(runCliWith(['lower', 'k.cl', '--target', 'opencl', '--tinytc', '0.4'], io as never), 2);
  assert.match(err, /--tinytc applies to tinytc \(\.ir\) input only/);
});

test('kernarg diff: the same memref read as v0.3 and as v0.4 (--new-opt --tinytc=0.4) is a breaking change of argument order', () => {
  const files: Record<string, string> = { 'f.ir': 'func @f(%a: memref<f32x?x?x?>) {}\n' };
  let out = '';
  const io = {
    stdout: (s: string) => (out += s),
    stderr: () => undefined,
    readFile: (p: string) => files[p],
    color: false,
  };
  const code = runCliWith(['diff', 'f.ir', 'f.ir', '--target', 'opencl', '--new-opt', '--tinytc=0.4'], io as never);
  assert.notEqual(code, 0);
  assert.match(out, /breaking\s+f\s+a_stride1\s+slot-moved\s+order\s+3\s+4/);
  out = '';
  assert.equal(runCliWith(['diff', 'f.ir', 'f.ir', '--target', 'opencl', '--new-opt', '--tinytc=0.3'], io as never), 0);
});
