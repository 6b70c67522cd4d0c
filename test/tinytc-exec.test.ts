// Every tinytc v0.3 instruction, compiled by kernarg to OpenCL C and run on the OpenCL test device
// (PoCL in CI), and to SPIR-V and run on the Vulkan test device (lavapipe in CI), against the JS
// reference: static and dynamic shapes, non-canonical strides, groups with and without offsets,
// howmany > 1. Each test runs once per API (KERNARG_API=opencl|vulkan runs one).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { APIS, type AnyContext } from '../src/runtime/api.js';
import { testDevice } from './support/device.js';
import { testVulkan } from './support/vulkan-device.js';
import { type Args, type ExecCase, randomFloats, runOnBoth, smallInts } from './support/tinytc-exec.js';

function withDevice(name: string, body: (ctx: AnyContext) => void | Promise<void>): void {
  for (const api of APIS) {
    if (process.env.KERNARG_API && process.env.KERNARG_API !== api) continue;
    test(`${name} [${api}]`, async (t) => {
      const ctx = api === 'vulkan' ? testVulkan(t) : testDevice(t);
      if (!ctx) return;
      try {
        await body(ctx);
      } finally {
        ctx.dispose();
      }
    });
  }
}

const ARRAY = { i8: Int8Array, i16: Int16Array, i32: Int32Array, f32: Float32Array, f64: Float64Array } as const;

function scalarProgram(t: 'i8' | 'i16' | 'i32' | 'i64' | 'f32' | 'f64'): { ir: string; outputs: number } {
  const int = !t.startsWith('f');
  const ops = ['add', 'sub', 'mul', 'div', 'rem', ...(int ? ['shl', 'shr', 'and', 'or', 'xor'] : [])];
  const lines: string[] = [];
  let n = 0;
  const out = (v: string) => lines.push(`  store ${v}, %out[${n++}] : memref<${t}x32>`);
  for (const op of ops) {
    lines.push(`  %${op} = arith.${op} %a, %b : ${t}`);
    out(`%${op}`);
  }
  lines.push(`  %neg = arith.neg %a : ${t}`);
  out('%neg');
  if (int) {
    lines.push(`  %not = arith.not %a : ${t}`, `  %imm = arith.mul %a, -3 : ${t}`);
    out('%not');
    out('%imm');
  } else {
    lines.push(`  %imm = arith.mul %a, -0.375 : ${t}`, `  %hex = arith.add %b, 0x1.8p1 : ${t}`);
    out('%imm');
    out('%hex');
  }
  for (const c of ['eq', 'ne', 'gt', 'ge', 'lt', 'le']) {
    lines.push(`  %c${c} = cmp.${c} %a, %b : ${t}`, `  %${c} = cast %c${c} : i1 -> ${t}`);
    out(`%${c}`);
  }
  lines.push(
    '  %both = cmp.lt %a, %b : ' + t,
    '  %either = cmp.ge %a, %b : ' + t,
    '  %x1 = arith.xor %both, %either : i1',
    '  %n1 = arith.not %x1 : i1',
    '  %o1 = arith.or %n1, %both : i1',
    `  %bit = cast %o1 : i1 -> ${t}`,
  );
  out('%bit');
  return { ir: `func @scalars(%a: ${t}, %b: ${t}, %out: memref<${t}x32>) {\n${lines.join('\n')}\n}`, outputs: n };
}

withDevice('arith, cmp and i1 logic in every scalar type (wrapping integers, shifts modulo the width)', (ctx) => {
  const values: Record<string, [number | bigint, number | bigint][]> = {
    i8: [
      [-7, 3],
      [100, 100],
      [-128, 9],
    ],
    i16: [
      [-7, 3],
      [30000, 3],
      [-32768, 17],
    ],
    i32: [
      [-7, 3],
      [2147483647, 2],
      [-5, 33],
    ],
    i64: [
      [-7n, 3n],
      [9223372036854775807n, 2n],
      [-5n, 65n],
    ],
    f32: [
      [-7.5, 2.25],
      [1e30, 1e-30],
      [0.1, 3],
    ],
    f64: [
      [-7.5, 2.25],
      [1e300, 1e-300],
      [0.1, 3],
    ],
  };
  for (const t of ['i8', 'i16', 'i32', 'i64', 'f32', 'f64'] as const) {
    const { ir } = scalarProgram(t);
    for (const [a, b] of values[t]) {
      runOnBoth(ctx, {
        ir,
        fn: 'scalars',
        args: () => ({ a, b, out: { data: t === 'i64' ? new BigInt64Array(32) : new ARRAY[t](32), shape: [32] } }),
      });
    }
  }
});

withDevice('cast between every pair of scalar types', (ctx) => {
  const types = ['i8', 'i16', 'i32', 'i64', 'index', 'f32', 'f64'] as const;
  const lines: string[] = [];
  const outs: string[] = [];
  for (const from of types) {
    for (const to of types) {
      const v = `%${from}_${to}`;
      lines.push(`  ${v} = cast %${from} : ${from} -> ${to}`);
      const mem = to;
      lines.push(`  store ${v}, %o_${mem}[${outs.filter((o) => o === mem).length}] : memref<${mem}x64>`);
      outs.push(mem);
    }
    lines.push(
      `  %${from}_b = cast %${from} : ${from} -> i1`,
      `  %${from}_bb = cast %${from}_b : i1 -> i32`,
      `  store %${from}_bb, %o_i32[${outs.filter((o) => o === 'i32').length}] : memref<i32x64>`,
    );
    outs.push('i32');
  }
  const mems = ['i8', 'i16', 'i32', 'i64', 'index', 'f32', 'f64'] as const;
  const ir = `func @casts(${types.map((t) => `%${t}: ${t}`).join(', ')}, ${mems.map((m) => `%o_${m}: memref<${m}x64>`).join(', ')}) {\n${lines.join('\n')}\n}`;
  for (const v of [-100, 0, 77]) {
    const args = (): Args => ({
      i8: v,
      i16: v * 3,
      i32: v * 1000,
      i64: BigInt(v) * 5000000000n,
      index: BigInt(v) * 7n,
      f32: v + 0.75,
      f64: v - 0.25,
      ...Object.fromEntries(
        mems.map((m) => [
          `o_${m}`,
          { data: m === 'i64' || m === 'index' ? new BigInt64Array(64) : new ARRAY[m](64), shape: [64] },
        ]),
      ),
    });
    runOnBoth(ctx, { ir, fn: 'casts', args });
  }
});

withDevice(
  'load and store through dynamic shapes and non-canonical strides; size; foreach over columns, for over rows',
  (ctx) => {
    const ir = `func @copy(%A: memref<f32x?x?,strided<2,?>>, %B: memref<f32x?x?>, %sizes: memref<indexx2>) {
  %m = size %A[0] : memref<f32x?x?,strided<2,?>>
  %n = size %A[1] : memref<f32x?x?,strided<2,?>>
  store %m, %sizes[0] : memref<indexx2>
  store %n, %sizes[1] : memref<indexx2>
  foreach %j = 0, %n {
    for %i = 0, %m {
      %v = load %A[%i, %j] : memref<f32x?x?,strided<2,?>>
      %w = arith.add %v, 0.5 : f32
      store %w, %B[%i, %j] : memref<f32x?x?>
    }
  }
}`;
    const [m, n] = [5, 7];
    runOnBoth(ctx, {
      ir,
      fn: 'copy',
      args: () => ({
        A: { data: randomFloats(Float32Array, 2 * 13 * n, 3), shape: [m, n], stride: [2, 13] },
        B: { data: new Float32Array(m * n), shape: [m, n] },
        sizes: { data: new BigInt64Array(2), shape: [2] },
      }),
    });
  },
);

withDevice(
  'subview (index, offset:size, offset:?, :), expand (with ? and values), fuse; howmany selects the batch',
  (ctx) => {
    const ir = `func @views(%A: memref<f32x4x6x?>, %B: memref<f32x24x?>, %C: memref<f32x10x?>, %k: index) {
  %id = group_id
  %a = subview %A[:, :, %id] : memref<f32x4x6x?>
  %f = fuse %a[0, 1] : memref<f32x4x6>
  %b = subview %B[:, %id] : memref<f32x24x?>
  axpby.n 1.0, %f, 0.0, %b : f32, memref<f32x24>, f32, memref<f32x24>
  %e = expand %b[0 -> 2x?] : memref<f32x24>
  %s = subview %e[1, 2:?] : memref<f32x2x12>
  %c = subview %C[:, %id] : memref<f32x10x?>
  axpby.n 2.0, %s, 0.0, %c : f32, memref<f32x10,strided<2>>, f32, memref<f32x10>
  %d = expand %c[0 -> %k x ?] : memref<f32x10>
  %d1 = subview %d[1:1, 0:?] : memref<f32x?x?,strided<1,?>>
  %one = subview %d1[0, %k:1] : memref<f32x1x?,strided<1,?>>
  axpby.n -1.0, %one, 1.0, %one : f32, memref<f32x1,strided<?>>, f32, memref<f32x1,strided<?>>
}`;
    const howmany = 3;
    runOnBoth(ctx, {
      ir,
      fn: 'views',
      howmany,
      args: () => ({
        A: { data: smallInts(Float32Array, 24 * howmany, 5), shape: [4, 6, howmany] },
        B: { data: new Float32Array(24 * howmany), shape: [24, howmany] },
        C: { data: new Float32Array(10 * howmany), shape: [10, howmany] },
        k: 2n,
      }),
    });
  },
);

withDevice('groups: per-member dynamic shapes and strides, static and dynamic offsets, howmany > 1', (ctx) => {
  const ir = `func @grp(%g: group<memref<f32x?x3>, offset: ?>, %h: group<memref<f32x2>, offset: 1>, %out: memref<f32x8x?>) {
  %id = group_id
  %a = load %g[%id] : group<memref<f32x?x3>>
  %b = load %h[%id] : group<memref<f32x2>>
  %n = size %a[0] : memref<f32x?x3>
  %o = subview %out[0:%n, %id] : memref<f32x8x?>
  sum.n 1.0, %a, 0.0, %o : f32, memref<f32x?x3,strided<1,?>>, f32, memref<f32x?>
  %v = load %b[1] : memref<f32x2>
  store %v, %out[7, %id] : memref<f32x8x?>
}`;
  const howmany = 4;
  const sizes = [2, 5, 1, 6];
  runOnBoth(ctx, {
    ir,
    fn: 'grp',
    howmany,
    args: () => ({
      // Member i: rows n_i, columns 3 apart by n_i + 1 (not canonical), starting 2 elements in.
      g: {
        group: sizes.map((n, i) => ({
          data: smallInts(Float32Array, 2 + (n + 1) * 3, i + 1),
          shape: [n, 3],
          stride: [1, n + 1],
        })),
        offset: 2,
      },
      h: { group: sizes.map((_, i) => ({ data: Float32Array.of(-1, 10 * i, 10 * i + 1), shape: [2] })) },
      out: { data: new Float32Array(8 * howmany), shape: [8, howmany] },
    }),
  });
});

withDevice(
  'alloca in local memory, barriers between collective writes and reads, a reduction through local memory',
  (ctx) => {
    const ir = `func @loc(%A: memref<f32x16x8>, %B: memref<f32x8x16>, %s: memref<f32>) {
  %t = alloca -> memref<f32x16x8>
  axpby.n 1.0, %A, 0.0, %t : f32, memref<f32x16x8>, f32, memref<f32x16x8>
  axpby.t 2.0, %t, 0.0, %B : f32, memref<f32x16x8>, f32, memref<f32x8x16>
  %u = alloca -> memref<f32x128>
  %tf = fuse %t[0, 1] : memref<f32x16x8>
  axpby.n 1.0, %tf, 0.0, %u : f32, memref<f32x128>, f32, memref<f32x128>
  sum.n 1.0, %u, 0.0, %s : f32, memref<f32x128>, f32, memref<f32>
}`;
    runOnBoth(ctx, {
      ir,
      fn: 'loc',
      args: () => ({
        A: { data: smallInts(Float32Array, 128, 9), shape: [16, 8] },
        B: { data: new Float32Array(128), shape: [8, 16] },
        s: { data: new Float32Array(1), shape: [] },
      }),
    });
  },
);

withDevice('if/yield with results, for with step and narrow loop types, foreach with a loop type', (ctx) => {
  const ir = `func @ctrl(%n: i32, %out: memref<i32x?>, %small: memref<i8x4>, %spread: memref<i16x40>) {
  for %i = 0, %n, 3 : i32 {
    %c = cmp.lt %i, 10 : i32
    %v, %w = if %c -> (i32, f32) {
      %d = arith.mul %i, 2 : i32
      yield %d, 1.5 : i32, f32
    } else {
      %e = arith.sub 0, %i : i32
      yield %e, 2.5 : i32, f32
    }
    %wi = cast %w : f32 -> i32
    %s = arith.add %v, %wi : i32
    %ix = cast %i : i32 -> index
    store %s, %out[%ix] : memref<i32x?>
  }
  %z = cmp.eq %n, 0 : i32
  if %z {
    store 99, %out[0] : memref<i32x?>
  }
  for %k = 0, 127, 100 : i8 {
    %q = arith.div %k, 100 : i8
    %qi = cast %q : i8 -> index
    store %k, %small[%qi] : memref<i8x4>
  }
  foreach %j = -20, 20 : i16 {
    %jj = arith.add %j, 20 : i16
    %ji = cast %jj : i16 -> index
    %sq = arith.mul %j, %j : i16
    store %sq, %spread[%ji] : memref<i16x40>
  }
}`;
  runOnBoth(ctx, {
    ir,
    fn: 'ctrl',
    args: () => ({
      n: 17,
      out: { data: new Int32Array(17), shape: [17] },
      small: { data: new Int8Array(4), shape: [4] },
      spread: { data: new Int16Array(40), shape: [40] },
    }),
  });
});

function blasCase(
  fn: string,
  body: string,
  params: Record<string, { type: string; make: () => unknown }>,
  howmany = 1,
  tol?: number,
): ExecCase {
  const ir = `func @${fn}(${Object.entries(params)
    .map(([k, v]) => `%${k}: ${v.type}`)
    .join(', ')}) {\n${body}\n}`;
  return {
    ir,
    fn,
    howmany,
    tol,
    args: () => Object.fromEntries(Object.entries(params).map(([k, v]) => [k, v.make()])),
  };
}

const f32m = (m: number, n: number, seed: number, opts: { stride?: number[]; dyn?: boolean } = {}) => ({
  type: `memref<f32x${opts.dyn ? '?x?' : `${m}x${n}`}${opts.stride ? `,strided<${opts.stride.map((s) => (opts.dyn ? '?' : s)).join(',')}>` : ''}>`,
  make: () => ({
    data: smallInts(Float32Array, opts.stride ? opts.stride[1] * n : m * n, seed),
    shape: [m, n],
    ...(opts.stride ? { stride: opts.stride } : {}),
  }),
});
const f32v = (n: number, seed: number, dyn = false) => ({
  type: `memref<f32x${dyn ? '?' : n}>`,
  make: () => ({ data: smallInts(Float32Array, n, seed), shape: [n] }),
});
const scalar = (type: string, v: number) => ({ type, make: () => v });

withDevice(
  'axpby: order 0, 1 and 2, .n and .t, static and dynamic, beta 0 ignores NaN in B, alpha and beta as values',
  (ctx) => {
    runOnBoth(
      ctx,
      blasCase('ax0', '  axpby.n 3.0, %a, 2.0, %b : f32, memref<f32>, f32, memref<f32>', {
        a: { type: 'memref<f32>', make: () => ({ data: Float32Array.of(5), shape: [] }) },
        b: { type: 'memref<f32>', make: () => ({ data: Float32Array.of(7), shape: [] }) },
      }),
    );
    runOnBoth(
      ctx,
      blasCase('ax1', '  axpby.n %al, %a, %be, %b : f32, memref<f32x?>, f32, memref<f32x?>', {
        al: scalar('f32', -2),
        a: f32v(300, 1, true),
        be: scalar('f32', 0.5),
        b: f32v(300, 2, true),
      }),
    );
    for (const [t, dyn] of [
      ['n', false],
      ['t', false],
      ['n', true],
      ['t', true],
    ] as const) {
      const A = t === 'n' ? f32m(37, 21, 3, { dyn, stride: [1, 40] }) : f32m(21, 37, 3, { dyn });
      const ty = (x: { type: string }) => x.type;
      const B = f32m(37, 21, 4, { dyn });
      runOnBoth(ctx, blasCase('ax2', `  axpby.${t} 1.5, %a, -1.0, %b : f32, ${ty(A)}, f32, ${ty(B)}`, { a: A, b: B }));
    }
    const nanB = { type: 'memref<f32x?>', make: () => ({ data: new Float32Array(50).fill(Number.NaN), shape: [50] }) };
    const out = runOnBoth(
      ctx,
      blasCase('beta0', '  axpby.n 2.0, %a, 0.0, %b : f32, memref<f32x?>, f32, memref<f32x?>', {
        a: f32v(50, 5, true),
        b: nanB,
      }),
    );
    assert.ok(!Number.isNaN((out.b as { data: Float32Array }).data[0]), 'beta 0 must not read B');
  },
);

withDevice(
  '.atomic updates from every work-group into one memref (beta 1, beta 0, general beta; f32, f64, i32, i64; local memory)',
  (ctx) => {
    const howmany = 6;
    for (const [t, arr] of [
      ['f32', Float32Array],
      ['f64', Float64Array],
      ['i32', Int32Array],
    ] as const) {
      const one = t === 'i32' ? '1' : '1.0';
      runOnBoth(
        ctx,
        blasCase(
          `at_${t}`,
          `  %id = group_id\n  %a = subview %A[:, %id] : memref<${t}x33x?>\n  axpby.n.atomic ${one}, %a, ${one}, %b : ${t}, memref<${t}x33>, ${t}, memref<${t}x33>`,
          {
            A: {
              type: `memref<${t}x33x?>`,
              make: () => ({ data: smallInts(arr, 33 * howmany, 7), shape: [33, howmany] }),
            },
            b: { type: `memref<${t}x33>`, make: () => ({ data: smallInts(arr, 33, 8), shape: [33] }) },
          },
          howmany,
        ),
      );
    }
    runOnBoth(
      ctx,
      blasCase(
        'at_i64',
        '  %id = group_id\n  %a = subview %A[:, %id] : memref<i64x9x?>\n  hadamard.atomic 2, %a, %a, 1, %b : i64, memref<i64x9>, memref<i64x9>, i64, memref<i64x9>',
        {
          A: {
            type: 'memref<i64x9x?>',
            make: () => ({
              data: BigInt64Array.from({ length: 9 * howmany }, (_, i) => BigInt(i - 20)),
              shape: [9, howmany],
            }),
          },
          b: { type: 'memref<i64x9>', make: () => ({ data: new BigInt64Array(9), shape: [9] }) },
        },
        howmany,
      ),
    );
    // A general beta is a compare-and-swap loop: one group, so the result is deterministic.
    runOnBoth(
      ctx,
      blasCase(
        'at_beta',
        '  ger.atomic 1.0, %a, %b, -0.5, %C : f64, memref<f64x5>, memref<f64x4>, f64, memref<f64x5x4>',
        {
          a: { type: 'memref<f64x5>', make: () => ({ data: smallInts(Float64Array, 5, 1), shape: [5] }) },
          b: { type: 'memref<f64x4>', make: () => ({ data: smallInts(Float64Array, 4, 2), shape: [4] }) },
          C: { type: 'memref<f64x5x4>', make: () => ({ data: smallInts(Float64Array, 20, 3), shape: [5, 4] }) },
        },
      ),
    );
    runOnBoth(
      ctx,
      blasCase(
        'at_local',
        `  %t = alloca -> memref<f32x8>
  axpby.n 1.0, %a, 0.0, %t : f32, memref<f32x8>, f32, memref<f32x8>
  axpby.n.atomic 2.0, %a, 1.0, %t : f32, memref<f32x8>, f32, memref<f32x8>
  sum.n.atomic 1.0, %t, 0.0, %s : f32, memref<f32x8>, f32, memref<f32>`,
        {
          a: f32v(8, 4),
          s: { type: 'memref<f32>', make: () => ({ data: Float32Array.of(100), shape: [] }) },
        },
      ),
    );
  },
);

withDevice('sum (.n, .t, vector to scalar), gemv (.n, .t), ger, hadamard — static and dynamic', (ctx) => {
  for (const dyn of [false, true]) {
    runOnBoth(
      ctx,
      blasCase(
        'sumn',
        `  sum.n 2.0, %A, 1.0, %b : f32, ${f32m(37, 9, 1, { dyn }).type}, f32, ${f32v(37, 2, dyn).type}`,
        { A: f32m(37, 9, 1, { dyn }), b: f32v(37, 2, dyn) },
      ),
    );
    runOnBoth(
      ctx,
      blasCase(
        'sumt',
        `  sum.t 1.0, %A, -1.0, %b : f32, ${f32m(37, 9, 1, { dyn, stride: [1, 40] }).type}, f32, ${f32v(9, 2, dyn).type}`,
        { A: f32m(37, 9, 1, { dyn, stride: [1, 40] }), b: f32v(9, 2, dyn) },
      ),
    );
    runOnBoth(
      ctx,
      blasCase('sumv', `  sum.n 0.5, %a, 2.0, %s : f32, ${f32v(1000, 3, dyn).type}, f32, memref<f32>`, {
        a: f32v(1000, 3, dyn),
        s: { type: 'memref<f32>', make: () => ({ data: Float32Array.of(3), shape: [] }) },
      }),
    );
    runOnBoth(
      ctx,
      blasCase(
        'gemvn',
        `  gemv.n 1.0, %A, %x, 0.0, %y : f32, ${f32m(45, 17, 4, { dyn }).type}, ${f32v(17, 5, dyn).type}, f32, ${f32v(45, 6, dyn).type}`,
        { A: f32m(45, 17, 4, { dyn }), x: f32v(17, 5, dyn), y: f32v(45, 6, dyn) },
      ),
    );
    runOnBoth(
      ctx,
      blasCase(
        'gemvt',
        `  gemv.t -1.0, %A, %x, 2.0, %y : f32, ${f32m(45, 17, 4, { dyn, stride: [1, 50] }).type}, ${f32v(45, 5, dyn).type}, f32, ${f32v(17, 6, dyn).type}`,
        { A: f32m(45, 17, 4, { dyn, stride: [1, 50] }), x: f32v(45, 5, dyn), y: f32v(17, 6, dyn) },
      ),
    );
    runOnBoth(
      ctx,
      blasCase(
        'ger',
        `  ger 2.0, %x, %y, 1.0, %A : f32, ${f32v(33, 7, dyn).type}, ${f32v(12, 8, dyn).type}, f32, ${f32m(33, 12, 9, { dyn }).type}`,
        { x: f32v(33, 7, dyn), y: f32v(12, 8, dyn), A: f32m(33, 12, 9, { dyn }) },
      ),
    );
    runOnBoth(
      ctx,
      blasCase(
        'had',
        `  hadamard 1.0, %x, %y, -1.0, %z : f32, ${f32v(130, 1, dyn).type}, ${f32v(130, 2, dyn).type}, f32, ${f32v(130, 3, dyn).type}`,
        { x: f32v(130, 1, dyn), y: f32v(130, 2, dyn), z: f32v(130, 3, dyn) },
      ),
    );
  }
});

withDevice(
  "BLAS with mixed element types: alpha, beta and every operand converted to C's element type first (f32 into f64, f64 into f32, integers into floats, floats into integers)",
  (ctx) => {
    const arr = { f32: Float32Array, f64: Float64Array, i32: Int32Array } as const;
    type T = keyof typeof arr;
    const of = (t: T, xs: ArrayLike<number>) =>
      t === 'f32' ? Float32Array.from(xs) : t === 'f64' ? Float64Array.from(xs) : Int32Array.from(xs, Math.trunc);
    const v = (t: T, n: number, seed: number, fractional = false) => ({
      type: `memref<${t}x${n}>`,
      make: () => ({
        data: fractional
          ? of(
              t,
              randomFloats(Float64Array, n, seed).map((x) => x * 7),
            )
          : smallInts(arr[t], n, seed),
        shape: [n],
      }),
    });
    const m = (t: T, r: number, c: number, seed: number) => ({
      type: `memref<${t}x${r}x${c}>`,
      make: () => ({
        data: randomFloats(Float64Array, r * c, seed).map((x) => (t === 'i32' ? Math.trunc(x * 9) : x)),
        shape: [r, c],
      }),
    });
    const typed = (t: T, x: { type: string; make: () => { data: Float64Array; shape: number[] } }) => ({
      type: x.type,
      make: () => {
        const o = x.make();
        return { ...o, data: of(t, o.data) };
      },
    });
    // f64 alpha and an f32 vector into f64: the product in f64, not f32.
    runOnBoth(
      ctx,
      blasCase('mx_axpby1', '  axpby.n %al, %a, 2.0, %b : f64, memref<f32x100>, f32, memref<f64x100>', {
        al: scalar('f64', 0.1),
        a: v('f32', 100, 3, true),
        b: v('f64', 100, 4, true),
      }),
    );
    // f64 into f32, transposed.
    runOnBoth(
      ctx,
      blasCase('mx_axpby2', '  axpby.t 1.5, %a, -1.0, %b : f64, memref<f64x21x37>, f32, memref<f32x37x21>', {
        a: typed('f64', m('f64', 21, 37, 5)),
        b: typed('f32', m('f32', 37, 21, 6)),
      }),
    );
    // Floats into integers: alpha 2.5 becomes 2, fractional elements truncate toward zero (exact).
    runOnBoth(
      ctx,
      blasCase('mx_axpby_int', '  axpby.n 2.5, %a, 1, %b : f32, memref<f32x64>, i32, memref<i32x64>', {
        a: v('f32', 64, 7, true),
        b: v('i32', 64, 8),
      }),
    );
    runOnBoth(
      ctx,
      blasCase(
        'mx_had',
        '  hadamard 2, %x, %y, 1.0, %z : i32, memref<i32x130>, memref<f32x130>, f64, memref<f64x130>',
        { x: v('i32', 130, 1), y: v('f32', 130, 2, true), z: v('f64', 130, 3, true) },
      ),
    );
    runOnBoth(
      ctx,
      blasCase('mx_ger', '  ger 0.5, %x, %y, 1.0, %A : f64, memref<f32x33>, memref<f64x12>, f32, memref<f32x33x12>', {
        x: v('f32', 33, 7, true),
        y: v('f64', 12, 8, true),
        A: typed('f32', m('f32', 33, 12, 9)),
      }),
    );
    runOnBoth(
      ctx,
      blasCase(
        'mx_gemv',
        '  gemv.n 1.0, %A, %x, 0.5, %y : f32, memref<f32x45x17>, memref<i32x17>, f64, memref<f64x45>',
        { A: typed('f32', m('f32', 45, 17, 4)), x: v('i32', 17, 5), y: v('f64', 45, 6, true) },
      ),
    );
    runOnBoth(
      ctx,
      blasCase('mx_sum', '  sum.n 2, %A, 1.0, %b : i32, memref<f32x37x9>, f64, memref<f64x37>', {
        A: typed('f32', m('f32', 37, 9, 1)),
        b: v('f64', 37, 2, true),
      }),
    );
    runOnBoth(
      ctx,
      blasCase('mx_sumv', '  sum.n 1.0, %a, 0.0, %s : f32, memref<i32x500>, f32, memref<f32>', {
        a: v('i32', 500, 3),
        s: { type: 'memref<f32>', make: () => ({ data: Float32Array.of(0), shape: [] }) },
      }),
    );
    runOnBoth(
      ctx,
      blasCase(
        'mx_gemm',
        '  gemm.n.t 1.0, %A, %B, 0.5, %C : f32, memref<f32x33x17>, memref<f32x9x17>, f64, memref<f64x33x9>',
        {
          A: typed('f32', m('f32', 33, 17, 11)),
          B: typed('f32', m('f32', 9, 17, 12)),
          C: typed('f64', m('f64', 33, 9, 13)),
        },
      ),
    );
  },
);

withDevice(
  'gemm: .n/.t on both sides, static 32³ and 64³, ragged dynamic sizes, padded strides, f64 and i32, batched over group_id',
  (ctx) => {
    for (const [ta, tb] of [
      ['n', 'n'],
      ['n', 't'],
      ['t', 'n'],
      ['t', 't'],
    ] as const) {
      for (const [m, n, k, dyn] of [
        [32, 32, 32, false],
        [37, 23, 19, true],
        [5, 70, 3, false],
      ] as const) {
        const A = ta === 'n' ? f32m(m, k, 1, { dyn, stride: [1, m + 3] }) : f32m(k, m, 1, { dyn });
        const B = tb === 'n' ? f32m(k, n, 2, { dyn }) : f32m(n, k, 2, { dyn, stride: [1, n + 1] });
        const C = f32m(m, n, 3, { dyn });
        runOnBoth(
          ctx,
          blasCase('gemm', `  gemm.${ta}.${tb} %alpha, %A, %B, %beta, %C : f32, ${A.type}, ${B.type}, f32, ${C.type}`, {
            alpha: scalar('f32', 2),
            A,
            B,
            beta: scalar('f32', -1),
            C,
          }),
        );
      }
    }
    const howmany = 3;
    for (const [t, arr, size] of [
      ['f64', Float64Array, 64],
      ['i32', Int32Array, 16],
      ['f32', Float32Array, 64],
    ] as const) {
      const mt = `memref<${t}x${size}x${size}x?>`;
      const one = t === 'i32' ? '1' : '1.0';
      const zero = t === 'i32' ? '0' : '0.0';
      runOnBoth(
        ctx,
        blasCase(
          `bgemm_${t}`,
          `  %id = group_id
  %a = subview %A[:, :, %id] : ${mt}
  %b = subview %B[:, :, %id] : ${mt}
  %c = subview %C[:, :, %id] : ${mt}
  gemm.n.n ${one}, %a, %b, ${zero}, %c : ${t}, memref<${t}x${size}x${size}>, memref<${t}x${size}x${size}>, ${t}, memref<${t}x${size}x${size}>`,
          Object.fromEntries(
            ['A', 'B', 'C'].map((x, i) => [
              x,
              {
                type: mt,
                make: () => ({ data: smallInts(arr, size * size * howmany, i + 1), shape: [size, size, howmany] }),
              },
            ]),
          ),
          howmany,
        ),
      );
    }
    // Random data: sums of products in a different order than the reference, within float tolerance.
    runOnBoth(ctx, {
      ...blasCase(
        'gemm_rand',
        '  gemm.n.n 1.0, %A, %B, 0.0, %C : f32, memref<f32x?x?>, memref<f32x?x?>, f32, memref<f32x?x?>',
        {
          A: {
            type: 'memref<f32x?x?>',
            make: () => ({ data: randomFloats(Float32Array, 50 * 60, 1), shape: [50, 60] }),
          },
          B: {
            type: 'memref<f32x?x?>',
            make: () => ({ data: randomFloats(Float32Array, 60 * 40, 2), shape: [60, 40] }),
          },
          C: { type: 'memref<f32x?x?>', make: () => ({ data: new Float32Array(50 * 40), shape: [50, 40] }) },
        },
      ),
      tol: 1e-5,
    });
  },
);

withDevice('gemm.atomic: every work-group adds its product into one C', (ctx) => {
  const howmany = 5;
  runOnBoth(
    ctx,
    blasCase(
      'gemm_at',
      `  %id = group_id
  %a = subview %A[:, :, %id] : memref<f32x20x10x?>
  gemm.n.n.atomic 1.0, %a, %B, 1.0, %C : f32, memref<f32x20x10>, memref<f32x10x12>, f32, memref<f32x20x12>`,
      {
        A: {
          type: 'memref<f32x20x10x?>',
          make: () => ({ data: smallInts(Float32Array, 200 * howmany, 1), shape: [20, 10, howmany] }),
        },
        B: { type: 'memref<f32x10x12>', make: () => ({ data: smallInts(Float32Array, 120, 2), shape: [10, 12] }) },
        C: { type: 'memref<f32x20x12>', make: () => ({ data: smallInts(Float32Array, 240, 3), shape: [20, 12] }) },
      },
      howmany,
    ),
  );
});

withDevice(
  'generated programs: chains of gemm, gemv, ger, sum, hadamard, axpby, foreach, local copies and replicated updates (fast-check)',
  async (ctx) => {
    const fc = (await import('fast-check')).default;
    const { chainSpec, renderChain } = await import('./support/gen-tinytc-bodies.js');
    fc.assert(
      fc.property(chainSpec, (spec) => {
        runOnBoth(ctx, renderChain(spec));
      }),
      {
        numRuns: Number(process.env.KERNARG_FC_RUNS ?? 20),
        seed: Number(process.env.KERNARG_FC_SEED ?? 20261122),
        endOnFailure: true,
      },
    );
  },
);
