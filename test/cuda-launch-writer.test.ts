// The CUDA host's compiled launch writer (src/runtime/cuda/launch-writer.ts) held to the general path it skips: on
// generated signatures and argument values, good and bad, a kernel with the writer and the same kernel packed by the
// interpreted writers alone (`interpreted: true`) hand the driver the same parameter bytes or refuse with the same
// error. Through the JS mock driver (test/support/mock-cuda.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { memoryHost } from '../src/frontend/opencl-c/index.js';
import { lower } from '../src/lower.js';
import { readPtx } from '../src/readers/ptx.js';
import { CudaBuffer, CudaContext, type CudaModule } from '../src/runtime/cuda/host.js';
import { compileLaunchWriter } from '../src/runtime/cuda/launch-writer.js';
import { cudaTarget } from '../src/targets/cuda/index.js';
import { SCALARS } from '../src/types/scalar-facts.js';
import type { CudaPlan } from '../src/targets/cuda/plan.js';
import { mockCuda } from './support/mock-cuda.js';
import { valueFor } from './support/pack-values.js';

/** Parameter types: the scalars char to double but half (NVPTX refuses it by value), vectors, a struct, a union. */
const TYPES = [
  ...SCALARS.slice(SCALARS.indexOf('char'), SCALARS.indexOf('double') + 1).filter((t) => t !== 'half'),
  ...['U', 'float2', 'int3', 'uchar4', 'double2', 'long2', 'short8', 'S', 'global float *', 'global const int *'],
];
const HEAD = 'typedef struct { char c; double d; int i; } S;\ntypedef union { int i; float f; } U;\n';

const cu = mockCuda({ k: { params: [] } }, { withParamInfo: false });
const ctx = CudaContext.open(undefined, cu);
const buffer = ctx.buffer(256);
const foreign = CudaContext.open(undefined, mockCuda({ k: { params: [] } }, { withParamInfo: false })).buffer(64);

/** Values no parameter takes, or only some do: the general path refuses them with its own messages. */
const odd = fc.oneof(
  fc.constantFrom(undefined, null, 'x', true, NaN, Infinity, -1, 2 ** 40, 1.5, -(2 ** 63), {}, [], 1n << 70n, -1n),
  fc.constantFrom(buffer, foreign, buffer.address, { address: buffer.address }),
  fc.integer(),
  fc.bigInt({ min: -(1n << 65n), max: 1n << 65n }),
  fc.array(fc.integer({ min: -300, max: 300 }), { maxLength: 9 }),
  fc.record({ c: fc.integer({ min: -200, max: 200 }), d: fc.double(), i: fc.integer() }),
);

/** Each parameter's value: mostly one its layout takes (a buffer for a pointer), sometimes anything. */
function argsFor(plan: CudaPlan): fc.Arbitrary<Record<string, unknown>> {
  const k = plan.kernels[0];
  const fields = k.args
    .filter((a) => a.param !== null)
    .map((a): [string, fc.Arbitrary<unknown>] => {
      const l = a.layout;
      // A union takes exactly one member.
      const good = !l
        ? fc.constant(buffer)
        : l.kind === 'record' && l.tagKind === 'union'
          ? fc.oneof(...l.fields.map((f) => fc.record({ [f.name!]: valueFor(f.layout) })))
          : valueFor(l);
      return [a.name, fc.oneof({ arbitrary: good, weight: 6 }, { arbitrary: odd, weight: 1 })];
    });
  return fc.record(Object.fromEntries(fields));
}

/** What a launch did: the parameter buffer it handed the driver, or its refusal. */
function outcome(run: () => void, bytes: () => Uint8Array): string {
  try {
    run();
    return `ok ${Buffer.from(bytes()).toString('hex')}`;
  } catch (e) {
    return `${(e as Error).constructor.name}: ${(e as Error).message}`;
  }
}

/** Launches every arguments object through the compiled writer and through the general path alone: the same outcome. */
function agree(m: CudaModule, plan: CudaPlan, all: readonly Record<string, unknown>[]): number {
  const fast = m.kernel('k', plan, { strict: false });
  const slow = m.kernel('k', plan, { strict: false, interpreted: true });
  let launched = 0;
  for (const args of all) {
    for (const form of ['params', 'extra'] as const) {
      const o = { args, global: [1], form };
      const a = outcome(
        () => fast.enqueue(o),
        () => fast.lastParameterBuffer(),
      );
      const b = outcome(
        () => slow.enqueue(o),
        () => slow.lastParameterBuffer(),
      );
      assert.equal(a, b, `${JSON.stringify(args, (_, v) => (typeof v === 'bigint' ? `${v}n` : v))} (${form})`);
      if (a.startsWith('ok ')) launched++;
    }
  }
  fast.dispose();
  slow.dispose();
  return launched;
}

test('the launch writer gives the bytes and refusals of the general path, on generated signatures and values', () => {
  const m = ctx.module('.version 7.0\n.target sm_50\n.address_size 64\n.visible .entry k() { ret; }\n');
  let compiled = 0;
  let launched = 0;
  fc.assert(
    fc.property(
      fc.array(fc.constantFrom(...TYPES), { maxLength: 6 }).chain((types) => {
        const source = `${HEAD}kernel void k(${types.map((t, i) => `${t} p${i}`).join(', ')}) {}`;
        const r = lower('k.cl', source, memoryHost({}), { target: 'cuda', format: 'json' });
        assert.ok(r.plan, `${source}\n${r.diagnostics.map((d) => d.message).join('\n')}`);
        const plan = r.plan as CudaPlan;
        return fc.tuple(fc.constant(types), fc.constant(plan), fc.array(argsFor(plan), { minLength: 1, maxLength: 4 }));
      }),
      ([types, plan, all]) => {
        const writer = compileLaunchWriter(cudaTarget.pack.layout(plan, 'k'), new Map(), CudaBuffer, 4096);
        // A union is a value the emitter never writes: such a kernel keeps the general path alone.
        assert.equal(writer === undefined, types.includes('U'), types.join(', '));
        if (writer) compiled++;
        launched += agree(m, plan, all);
      },
    ),
    { numRuns: 60 },
  );
  // The comparison was of launches that packed, through the writer, not only of refusals.
  assert.ok(compiled > 30 && launched > 100, `${compiled} kernels with the writer, ${launched} launches`);
  m.dispose();
});

test('pointer-width integers of untyped PTX take a buffer of this context, a number or a bigint; 32-bit too', () => {
  for (const bits of [64, 32] as const) {
    const t = bits === 64 ? 'u64' : 'u32';
    const ptx =
      `.version 7.0\n.target sm_50\n.address_size ${bits}\n` +
      `.visible .entry k(.param .${t} k_param_0, .param .u32 k_param_1, .param .f32 k_param_2) { ret; }\n`;
    const plan = readPtx(new TextEncoder().encode(ptx), 'k.ptx').plan! as CudaPlan;
    const m = ctx.module(ptx);
    const values = fc.oneof(
      { arbitrary: fc.oneof(fc.constant(buffer), fc.nat(), fc.bigInt({ min: 0n, max: (1n << 64n) - 1n })), weight: 4 },
      {
        arbitrary: fc.oneof(fc.constantFrom(foreign, -1, 2 ** 33, 'x'), fc.bigInt({ min: -1n, max: 1n << 64n })),
        weight: 1,
      },
    );
    const all = fc.sample(
      fc.record({
        k_param_0: values,
        k_param_1: fc.oneof({ arbitrary: fc.nat(), weight: 4 }, { arbitrary: odd, weight: 1 }),
        k_param_2: fc.oneof({ arbitrary: fc.double(), weight: 4 }, { arbitrary: odd, weight: 1 }),
      }),
      { seed: bits, numRuns: 200 },
    );
    const launched = agree(m, plan, all);
    // 32-bit: a buffer (the mock's addresses are past 4 GiB) and most bigints do not fit the first parameter.
    assert.ok(launched > (bits === 64 ? 100 : 40), `${bits}-bit: ${launched} launches packed`);
    m.dispose();
  }
});
