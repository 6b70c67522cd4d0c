// The staged SPIR-V GEMMs written out (`index32,unroll=full`: no loops, guards as branches) executed here work-item by
// work-item between their OpControlBarriers, every access to the Workgroup tiles tracked: no element
// written by one work-item and read or written by another between the same two barriers (a missing
// or misplaced barrier, as between reading one K tile and filling the next), no read of an element
// not yet written or outside its array, and C as the in-order sums bit for bit. lavapipe runs the
// same modules but cannot show a race its scheduling hides; this is what was checked for the one
// wrong element NVIDIA's Vulkan driver gave (README, the GEMM sweep).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DiagnosticBag } from '../src/diagnostics/diagnostic.js';
import { SourceFile } from '../src/diagnostics/source.js';
import { disassemble } from '../src/emit/spirv/disassemble.js';
import { SPIR } from '../src/layout/data-layout.js';
import { withAddressTables } from '../src/targets/vulkan/address-tables.js';
import { lowerVulkan } from '../src/targets/vulkan/lower.js';
import { emitTinytcSpirv } from '../src/codegen/spirv/index.js';
import { GEMM_VARIANTS, type GemmVariantName } from '../src/codegen/blas-policy.js';
import { parseSpirvKnobs } from '../src/codegen/spirv-knobs.js';
import { compileTinytc } from '../src/codegen/compile-tinytc.js';
import { randomFloats } from './support/tinytc-exec.js';

type Inst = { res?: string; op: string; args: string[] };
type Ptr = { v: string; i: number; n?: number };

interface Run {
  problems: string[];
  /** C after every work-item ran. */
  c: Float64Array | Float32Array;
}

/** Runs a loop-free compute module on one work-group: a C = alpha · A · B + beta · C over storage buffers named *.A, *.B, *.C. */
function runWorkGroup(text: string, data: Record<'A' | 'B' | 'C', Float64Array | Float32Array>): Run {
  const [, x, y] = /LocalSize (\d+) (\d+) 1/.exec(text)!.map(Number);
  const lines = text.split('\n').map((l) => l.trim());
  const consts = new Map<string, number>();
  const lengths = new Map<string, number>();
  const buffers = new Map<string, Float64Array | Float32Array>();
  // Work-group arrays of vectors (the `lvec` tiles): their components, tracked element by element.
  const vectors = new Map<string, number>();
  const lanes = new Map<string, number>();
  // Pointers to vectors in storage buffers (`cvec`: C written back through its alias as vectors): their lanes.
  const bufferVectors = new Map<string, number>();
  const f32 = data.C instanceof Float32Array;
  let body: Inst[] = [];
  let inFunction = false;
  for (const line of lines) {
    const m = /^(?:(%\S+) = )?(Op\w+)\s*(.*)$/.exec(line);
    if (!m) continue;
    const [, res, op, rest] = m;
    const args = rest.split(/\s+/).filter(Boolean);
    if (op === 'OpFunction') inFunction = true;
    else if (op === 'OpFunctionEnd') inFunction = false;
    else if (inFunction) body.push({ res, op, args });
    else if (op === 'OpConstant') consts.set(res!, Number(args[1]));
    else if (op === 'OpTypeVector') vectors.set(res!, Number(args[1]));
    else if (op === 'OpTypeArray') {
      lengths.set(res!, consts.get(args[1])! * (vectors.get(args[0]) ?? 1));
      if (vectors.has(args[0])) lanes.set(res!, vectors.get(args[0])!);
    } else if (op === 'OpTypePointer' && args[0] === 'StorageBuffer' && vectors.has(args[1])) {
      bufferVectors.set(res!, vectors.get(args[1])!);
    } else if (op === 'OpTypePointer' && args[0] === 'Workgroup') {
      lengths.set(res!, lengths.get(args[1]) ?? 0);
      if (lanes.has(args[1])) lanes.set(res!, lanes.get(args[1])!);
    } else if (op === 'OpVariable' && args[1] === 'Workgroup') {
      lengths.set(res!, lengths.get(args[0])!);
      if (lanes.has(args[0])) lanes.set(res!, lanes.get(args[0])!);
    } else if (op === 'OpName' && /"\w+\.([ABC])"/.test(rest))
      buffers.set(args[0], data[/"\w+\.([ABC])"/.exec(rest)![1] as 'A' | 'B' | 'C']);
  }
  assert.ok(!body.some((i) => i.op === 'OpLoopMerge'), 'every loop written out');
  body = body.filter((i) => i.op !== 'OpExtInst');
  const labels = new Map(body.flatMap((i, at) => (i.op === 'OpLabel' ? [[i.res!, at] as const] : [])));
  const shared = new Map<string, Map<number, number>>(
    [...lengths].filter(([k]) => !k.startsWith('%_')).map(([k]) => [k, new Map()]),
  );
  const n = x * y;
  const envs = Array.from({ length: n }, () => new Map<string, unknown>(consts));
  const pcs = new Array<number>(n).fill(0);
  const locals = new Map<string, unknown>();
  const problems: string[] = [];
  const round = (v: number) => (f32 ? Math.fround(v) : v);
  for (let phase = 0; pcs.some((pc) => pc < body.length); phase++) {
    const writer = new Map<string, number>();
    const readers = new Map<string, Set<number>>();
    // The barrier (or the end) each work-item stops at: one and the same, or the flow is not uniform.
    const stops = new Set<number>();
    for (let w = 0; w < n; w++) {
      const env = envs[w];
      const get = (id: string) => env.get(id) as number;
      for (; pcs[w] < body.length;) {
        const { res, op, args } = body[pcs[w]++];
        if (op === 'OpControlBarrier') break;
        const key = (p: Ptr) => `${p.v}[${p.i}]`;
        switch (op) {
          case 'OpReturn':
            pcs[w] = body.length;
            break;
          case 'OpLabel':
          case 'OpSelectionMerge':
            break;
          case 'OpBranch':
            pcs[w] = labels.get(args[0])!;
            break;
          case 'OpBranchConditional':
            pcs[w] = labels.get(env.get(args[0]) ? args[1] : args[2])!;
            break;
          case 'OpVariable':
            env.set(res!, { v: `${res}@${w}`, i: 0 });
            break;
          case 'OpSLessThan':
            env.set(res!, get(args[1]) < get(args[2]));
            break;
          case 'OpLogicalAnd':
            env.set(res!, Boolean(env.get(args[1])) && Boolean(env.get(args[2])));
            break;
          case 'OpLoad': {
            if (args[1] === '%gl_LocalInvocationID') {
              env.set(res!, [w % x, Math.floor(w / x), 0]);
              break;
            }
            const whole = env.get(args[1]) as Ptr;
            const tile = shared.get(whole.v);
            if (!tile) {
              const buffer = buffers.get(whole.v);
              if (buffer && whole.n !== undefined) env.set(res!, [...buffer.subarray(whole.i, whole.i + whole.n)]);
              else env.set(res!, buffer ? buffer[whole.i] : locals.get(whole.v));
              break;
            }
            // A vector's components one by one (a scalar: one component).
            const parts: unknown[] = [];
            for (let q = 0; q < (whole.n ?? 1); q++) {
              const p = { v: whole.v, i: whole.i + q };
              if (!(p.i >= 0 && p.i < lengths.get(p.v)!))
                problems.push(`phase ${phase}: work-item ${w} reads ${key(p)}, outside the array`);
              else if (!tile.has(p.i)) problems.push(`phase ${phase}: work-item ${w} reads ${key(p)}, never written`);
              const by = writer.get(key(p));
              if (by !== undefined && by !== w)
                problems.push(
                  `phase ${phase}: work-item ${w} reads ${key(p)}, written by ${by} between the same barriers`,
                );
              readers.set(key(p), (readers.get(key(p)) ?? new Set()).add(w));
              parts.push(tile.get(p.i));
            }
            env.set(res!, whole.n === undefined ? parts[0] : parts);
            break;
          }
          case 'OpStore': {
            const p = env.get(args[0]) as Ptr;
            const value = get(args[1]);
            const tile = shared.get(p.v);
            if (!tile) {
              const buffer = buffers.get(p.v);
              if (buffer && p.n !== undefined) buffer.set(env.get(args[1]) as number[], p.i);
              else if (buffer) buffer[p.i] = value;
              else locals.set(p.v, value);
              break;
            }
            if (!(p.i >= 0 && p.i < lengths.get(p.v)!))
              problems.push(`phase ${phase}: work-item ${w} writes ${key(p)}, outside the array`);
            const by = writer.get(key(p));
            if (by !== undefined && by !== w)
              problems.push(`phase ${phase}: ${key(p)} written by ${by} and ${w} between the same barriers`);
            const others = [...(readers.get(key(p)) ?? [])].filter((r) => r !== w);
            if (others.length)
              problems.push(
                `phase ${phase}: work-item ${w} writes ${key(p)}, read by ${others[0]} between the same barriers`,
              );
            writer.set(key(p), w);
            tile.set(p.i, value);
            break;
          }
          case 'OpAccessChain': {
            // A vector of a storage buffer (its alias as an array of vectors): the vector's elements.
            const bn = bufferVectors.get(args[0]);
            if (bn !== undefined) {
              env.set(res!, { v: args[1], i: get(args[args.length - 1]) * bn, n: bn });
              break;
            }
            const n = lanes.get(args[1]);
            // Into a vector array: (vector, component) to an element, or (vector) to a whole vector.
            if (n === undefined) env.set(res!, { v: args[1], i: get(args[args.length - 1]) });
            else if (args.length === 4) env.set(res!, { v: args[1], i: get(args[2]) * n + get(args[3]) });
            else env.set(res!, { v: args[1], i: get(args[2]) * n, n });
            break;
          }
          case 'OpCompositeExtract':
            env.set(res!, (env.get(args[1]) as number[])[Number(args[2])]);
            break;
          case 'OpUConvert':
            env.set(res!, get(args[1]));
            break;
          case 'OpIAdd':
            env.set(res!, get(args[1]) + get(args[2]));
            break;
          case 'OpIMul':
            env.set(res!, get(args[1]) * get(args[2]));
            break;
          case 'OpUMod':
            env.set(res!, get(args[1]) % get(args[2]));
            break;
          case 'OpUDiv':
            env.set(res!, Math.floor(get(args[1]) / get(args[2])));
            break;
          case 'OpFMul':
            env.set(res!, round(get(args[1]) * get(args[2])));
            break;
          case 'OpFAdd': {
            const [a, b] = [env.get(args[1]), env.get(args[2])];
            if (Array.isArray(a))
              env.set(
                res!,
                a.map((v: number, q) => round(v + (b as number[])[q])),
              );
            else env.set(res!, round((a as number) + (b as number)));
            break;
          }
          case 'OpCompositeConstruct':
            env.set(res!, args.slice(1).map(get));
            break;
          case 'OpVectorTimesScalar':
            env.set(
              res!,
              (env.get(args[1]) as number[]).map((v) => round(v * get(args[2]))),
            );
            break;
          default:
            throw new Error(`the interpreter has no ${op}`);
        }
      }
      stops.add(pcs[w]);
    }
    if (stops.size > 1)
      problems.push(`phase ${phase}: work-items stop at ${stops.size} different barriers (control flow not uniform)`);
  }
  return { problems, c: data.C };
}

/** The in-order sums: C = 2 · A · B − C for column-major A (m × k), B (k × n). */
function reference(
  a: Float64Array | Float32Array,
  b: Float64Array | Float32Array,
  c: Float64Array | Float32Array,
  m: number,
  k: number,
  n: number,
) {
  const f32 = c instanceof Float32Array;
  const r = (v: number) => (f32 ? Math.fround(v) : v);
  const out = c.slice();
  for (let j = 0; j < n; j++) {
    for (let i = 0; i < m; i++) {
      let s = 0;
      for (let p = 0; p < k; p++) s = r(s + r(a[i + m * p] * b[p + k * j]));
      out[i + m * j] = r(r(2 * s) + r(-1 * c[i + m * j]));
    }
  }
  return out;
}

function gemmText(
  t: 'f32' | 'f64',
  m: number,
  k: number,
  n: number,
  variant: GemmVariantName,
  setting: string,
): string {
  const [ta, tb, tc] = [`memref<${t}x${m}x${k}>`, `memref<${t}x${k}x${n}>`, `memref<${t}x${m}x${n}>`];
  const ir = `func @g(%A: ${ta}, %B: ${tb}, %C: ${tc}) {\n  gemm.n.n 2.0, %A, %B, -1.0, %C : ${t}, ${ta}, ${tb}, ${t}, ${tc}\n}`;
  // As the Vulkan runtime compiles for a GPU (its work-group and 40 KiB of tiles).
  const fe = compileTinytc(new SourceFile('g.ir', ir), { layout: SPIR, api: 'vulkan' });
  const plan = withAddressTables(lowerVulkan(fe.compiled!.module, {}, new DiagnosticBag()))!;
  return disassemble(
    emitTinytcSpirv(fe.compiled!, plan, {
      blas: { gemm: [{ variant }], localBytes: 40960, spirv: parseSpirvKnobs(setting) },
    }),
  );
}

function check(t: 'f32' | 'f64', m: number, k: number, n: number, text: string, what: string): string[] {
  const make = (len: number, seed: number) =>
    t === 'f32' ? randomFloats(Float32Array, len, seed) : randomFloats(Float64Array, len, seed);
  const [a, b, c] = [make(m * k, 7), make(k * n, 8), make(m * n, 9)];
  const expected = reference(a, b, c, m, k, n);
  const run = runWorkGroup(text, { A: a, B: b, C: c });
  const wrong = [...run.c].findIndex((v, i) => !Object.is(v, expected[i]));
  return [
    ...run.problems,
    ...(wrong < 0 ? [] : [`${what}: C[${wrong}] is ${run.c[wrong]}, the in-order sum ${expected[wrong]}`]),
  ];
}

const STAGED = GEMM_VARIANTS.filter((v) => !v.startsWith('direct'));

test('staged SPIR-V GEMMs written out: no race, unwritten or out-of-range tile access between barriers, in-order sums (g_whole, 32×48×32 f64)', () => {
  for (const variant of STAGED) {
    // Written out only in the 32-bit spelling (unroll=full alone spells what unroll=hint does: gemm.ts).
    for (const setting of ['index32,unroll=full', 'index32,fill=hoisted,unroll=full']) {
      const what = `${variant} ${setting}`;
      assert.deepEqual(
        check('f64', 32, 48, 32, gemmText('f64', 32, 48, 32, variant, setting), what).slice(0, 3),
        [],
        what,
      );
    }
  }
});

test('staged SPIR-V GEMMs written out over several K tiles (20×40×12 f32: ragged blocks, K by 8 and 16): no race between reading one tile and filling the next', () => {
  for (const variant of ['staged-k8', 'staged-k16', 'vector-k8', 'vector-k16'] as const)
    // `batch`: both tiles' reads into Function variables before either tile's stores.
    for (const setting of ['index32,unroll=full', 'index32,unroll=full,batch']) {
      const what = `${variant} ${setting}`;
      assert.deepEqual(
        check('f32', 20, 40, 12, gemmText('f32', 20, 40, 12, variant, setting), what).slice(0, 3),
        [],
        what,
      );
    }
});

test('the check finds a race: without the barrier after a fill, or the one before the next fill', () => {
  const text = gemmText('f32', 20, 40, 12, 'staged-k8', 'index32,unroll=full');
  const barriers = [...text.matchAll(/^.*OpControlBarrier.*$/gm)];
  assert.ok(barriers.length >= 4, `${barriers.length} barriers`);
  const without = (b: RegExpMatchArray) => text.slice(0, b.index) + text.slice(b.index! + b[0].length);
  const problems = (b: RegExpMatchArray) => check('f32', 20, 40, 12, without(b), 'one barrier fewer');
  assert.match(problems(barriers[0]).join('\n'), /written by \d+ between the same barriers|never written/);
  assert.match(problems(barriers[1]).join('\n'), /writes \S+, read by \d+ between the same barriers/);
});

test('`lvec` and `pad` written out (tiles as arrays of vectors, B padded): no race, every vector read written, in-order sums', () => {
  const cases = [
    ['f64', 32, 48, 32],
    ['f32', 64, 24, 32],
  ] as const;
  for (const [t, m, k, n] of cases)
    for (const variant of ['vector-k8', 'vector-k16', 'vector-all', 'staged-k16'] as const)
      for (const knobs of ['lvec', 'lvec,pad=4', 'pad=0', 'pad=2', 'lvec,batch']) {
        const setting = `index32,fill=hoisted,unroll=full,${knobs}`;
        const text = gemmText(t, m, k, n, variant, setting);
        const what = `${t} ${variant} ${setting}`;
        // The vector variants' tiles are vectors under `lvec` (B's under pad=4 too), and read as vectors.
        if (variant.startsWith('vector-') && knobs.includes('lvec'))
          assert.match(text, /OpTypeArray %v\d(float|double)/, what);
        assert.deepEqual(check(t, m, k, n, text, what).slice(0, 3), [], what);
      }
});

test('`apad` written out (A k-fastest, rows T + P apart; overlapped tiles with `pad`): no race, every read written, in-order sums', () => {
  const cases = [
    ['f64', 32, 48, 32],
    ['f32', 64, 24, 32],
  ] as const;
  for (const [t, m, k, n] of cases)
    for (const variant of ['staged-k8', 'staged-k16', 'overlap-k8', 'overlap-k16'] as const)
      for (const knobs of ['apad=2', 'pad=0,apad=0', 'pad=0,apad=4,batch']) {
        const setting = `index32,fill=hoisted,unroll=full,${knobs}`;
        const what = `${t} ${variant} ${setting}`;
        assert.deepEqual(check(t, m, k, n, gemmText(t, m, k, n, variant, setting), what).slice(0, 3), [], what);
      }
});

test("`cvec` and `cstage` written out (C as vectors: rows of C and of A's tile neighbours, or C's block through work-group memory): no race, every read written, in-order sums", () => {
  const cases = [
    ['f64', 32, 48, 32],
    ['f32', 64, 24, 32],
  ] as const;
  for (const [t, m, k, n] of cases)
    for (const variant of ['staged-k8', 'staged-k16', 'vector-k16'] as const)
      for (const knobs of [
        'cvec',
        'pad=0,cvec',
        'pad=0,cvec,batch',
        'pad=0,cstage',
        'cstage,batch',
        'pad=0,cstage=2',
        'cstage=1',
      ]) {
        const setting = `index32,fill=hoisted,unroll=full,${knobs}`;
        const text = gemmText(t, m, k, n, variant, setting);
        const what = `${t} ${variant} ${setting}`;
        // C's vectors: every store to C through its alias.
        assert.match(text, /OpAccessChain %_ptr_StorageBuffer_v\d(float|double) %g_C/, what);
        assert.deepEqual(check(t, m, k, n, text, what).slice(0, 3), [], what);
      }
});
