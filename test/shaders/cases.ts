// kernarg's own compute shaders (the .comp files beside this one, and one .hlsl) with, for each, the launches
// to make and a JS reference of what the shader computes. The lavapipe test and the GPU script
// (scripts/gpu-vulkan-shaders.sh) run the same cases: arguments are made from a seed, so a
// fast-check seed and the script's fixed seeds give the same kinds of values.
import type { ShaderGeometry, ShaderOptions } from '../../src/runtime/vulkan/shader.js';

export interface ShaderRunCase {
  readonly label: string;
  readonly options?: ShaderOptions;
  readonly geometry: ShaderGeometry;
  /** The arguments for a seed, as a JSON file would hold them. */
  readonly args: (seed: number) => Record<string, unknown>;
  /** The differences between the run's arguments after the launch and the reference's (none: it passed). */
  readonly check: (args: Record<string, unknown>, after: Record<string, unknown>) => string[];
}

export interface ShaderCase {
  /** test/shaders/<name>.comp (GLSL) or <name>.hlsl (HLSL, through glslang's HLSL front end) */
  readonly name: string;
  readonly runs: readonly ShaderRunCase[];
  /** The host's refusal, for a shader it does not launch (its plan is still checked). */
  readonly refused?: RegExp;
}

/** A small seeded generator (mulberry32): the same values on every machine. */
export function random(seed: number): { int(lo: number, hi: number): number; float(): number } {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    // Quarters from -8 to 8: exact in float, so sums and products of a few stay exact.
    float: () => (Math.floor(next() * 65) - 32) / 4,
  };
}

const f32 = Math.fround;
type V = number[];
const add = (a: V, b: V) => a.map((x, i) => f32(x + b[i]));
const scale = (a: V, s: number) => a.map((x) => f32(x * s));

/** Differences between two values, with floats compared to a relative 1e-5 (a GPU may fuse a multiply and an add). */
export function differences(path: string, got: unknown, want: unknown, out: string[] = []): string[] {
  if (out.length >= 8) return out;
  if (typeof want === 'number' && typeof got === 'number') {
    if (!(Math.abs(got - want) <= 1e-5 * Math.max(1, Math.abs(want)))) out.push(`${path}: ${got}, expected ${want}`);
  } else if (Array.isArray(want) && Array.isArray(got) && got.length === want.length)
    want.forEach((w, i) => differences(`${path}[${i}]`, got[i], w, out));
  else if (want && typeof want === 'object' && got && typeof got === 'object' && !Array.isArray(want)) {
    for (const k of Object.keys(want))
      differences(`${path}.${k}`, (got as Record<string, unknown>)[k], (want as Record<string, unknown>)[k], out);
  } else if (JSON.stringify(got) !== JSON.stringify(want))
    out.push(`${path}: ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`);
  return out;
}

const list = <T>(n: number, f: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => f(i));
const vec = (r: ReturnType<typeof random>, n: number) => list(n, () => r.float());

export const SHADER_CASES: readonly ShaderCase[] = [
  {
    name: 'saxpy',
    runs: [
      {
        label: '200 elements, 256 work-items',
        geometry: { global: [256] },
        args: (seed) => {
          const r = random(seed);
          return { X: { x: vec(r, 256) }, ys: { y: vec(r, 256) }, params: { a: r.float(), n: 200 } };
        },
        check: (args, after) => {
          const x = (args.X as { x: V }).x;
          const y = (args.ys as { y: V }).y;
          const { a, n } = args.params as { a: number; n: number };
          return differences('ys', after.ys, { y: y.map((v, i) => (i < n ? f32(f32(a * x[i]) + v) : v)) });
        },
      },
    ],
  },
  {
    name: 'std140-uniforms',
    runs: [
      {
        label: 'one work-group',
        geometry: { groups: [1] },
        args: (seed) => {
          const r = random(seed);
          const light = () => ({ dir: vec(r, 3), power: r.float(), color: vec(r, 3) });
          return {
            scene: {
              ambient: vec(r, 3),
              gain: r.float(),
              lights: [light(), light()],
              rot: list(3, () => vec(r, 3)),
              weights: vec(r, 4),
              tail: vec(r, 3),
            },
            outp: { result: { size: 4 } },
          };
        },
        check: (args, after) => {
          const s = args.scene as {
            ambient: V;
            gain: number;
            lights: { dir: V; power: number; color: V }[];
            rot: V[];
            weights: V;
            tail: V;
          };
          const result = list(4, (i) => {
            const l = s.lights[i % 2];
            // mat3 * vec3: rot[column][row].
            const turned = [0, 1, 2].map((row) =>
              f32(f32(f32(s.rot[0][row] * l.dir[0]) + f32(s.rot[1][row] * l.dir[1])) + f32(s.rot[2][row] * l.dir[2])),
            );
            const c = add(
              add(add(s.ambient, scale(l.color, f32(l.power * s.gain))), scale(turned, s.weights[i])),
              s.tail,
            );
            return [...c, i];
          });
          return differences('outp', after.outp, { result });
        },
      },
    ],
  },
  {
    name: 'push-struct',
    runs: [
      {
        label: '16x4 work-items',
        geometry: { global: [16, 4] },
        args: (seed) => {
          const r = random(seed);
          return {
            pc: {
              win: { origin: [r.int(-5, 5), r.int(-5, 5)], size: [r.int(0, 16), r.int(0, 4)] },
              scale: [r.int(-3, 3), r.int(-3, 3)],
              bias: r.int(-100, 100),
              flip: r.int(0, 1) === 1,
            },
            grid: { cells: { size: 64 } },
          };
        },
        check: (args, after) => {
          const pc = args.pc as { win: { origin: V; size: V }; scale: V; bias: number; flip: boolean };
          const cells = list(64, (k) => {
            const [x, y] = [k % 16, Math.floor(k / 16)];
            let v = x * pc.scale[0] + y * pc.scale[1] + pc.bias;
            if (x < pc.win.size[0] && y < pc.win.size[1]) v += pc.win.origin[0] * 1000 + pc.win.origin[1];
            return pc.flip ? -v : v;
          });
          return differences('grid', after.grid, { cells });
        },
      },
    ],
  },
  {
    name: 'sets',
    runs: [
      {
        label: 'sets 0, 1 and 3',
        geometry: { groups: [2] },
        args: (seed) => {
          const r = random(seed);
          const count = r.int(1, 64);
          return {
            A: { a: list(64, () => r.int(-1000, 1000)) },
            B: { b: list(64, () => r.int(-1000, 1000)) },
            bias: { bias: list(4, () => r.int(-50, 50)), count },
            C: { c: { size: 64 } },
          };
        },
        check: (args, after) => {
          const a = (args.A as { a: V }).a;
          const b = (args.B as { b: V }).b;
          const { bias, count } = args.bias as { bias: V; count: number };
          return differences('C', after.C, { c: list(64, (i) => (i < count ? a[i] * b[i] + bias[i % 4] : 0)) });
        },
      },
    ],
  },
  {
    name: 'spec-constants',
    runs: [
      {
        label: 'defaults',
        geometry: { global: [32] },
        args: () => ({ o: { v: { size: 32 } } }),
        check: (_, after) => differences('o', after.o, { v: list(32, (i) => (i * 2 + 3) * 0.5) }),
      },
      ...[
        [-7, 5, 0.25, true],
        [100, 0, -1.5, false],
      ].map(([OFFSET, STRIDE, SCALE, NEGATE]) => ({
        label: `OFFSET=${OFFSET} STRIDE=${STRIDE} SCALE=${SCALE} NEGATE=${NEGATE}`,
        options: { specialization: { OFFSET, STRIDE, SCALE, NEGATE } },
        geometry: { global: [32] },
        args: () => ({ o: { v: { size: 32 } } }),
        check: (_: unknown, after: Record<string, unknown>) =>
          differences('o', after.o, {
            v: list(
              32,
              (i) => f32((i * (STRIDE as number) + (OFFSET as number)) * (SCALE as number)) * (NEGATE ? -1 : 1),
            ),
          }),
      })),
    ],
  },
  {
    name: 'spec-workgroup',
    runs: [8, 32, 1].map((width) => ({
      label: `local size ${width}`,
      options: { local: [width] },
      geometry: { groups: [4] },
      args: (seed: number) => {
        const r = random(seed);
        return { inp: { data: list(4 * width, () => r.int(0, 1 << 20)) }, outp: { groupSize: 0, sums: { size: 4 } } };
      },
      check: (args: Record<string, unknown>, after: Record<string, unknown>) => {
        const data = (args.inp as { data: V }).data;
        return differences('outp', after.outp, {
          groupSize: width,
          sums: list(4, (g) => data.slice(g * width, (g + 1) * width).reduce((s, x) => s + x, 0)),
        });
      },
    })),
  },
  {
    name: 'particles',
    runs: [
      {
        label: 'a runtime array of structs, in place',
        geometry: { global: [12] },
        args: (seed) => {
          const r = random(seed);
          return {
            ps: {
              count: 10,
              dt: 0.25,
              p: list(12, (i) => ({
                pos: vec(r, 3),
                mass: [1, 2, 4, 0.5][i % 4],
                vel: vec(r, 3),
                id: r.int(0, 1 << 30),
              })),
            },
          };
        },
        check: (args, after) => {
          const { count, dt, p } = args.ps as {
            count: number;
            dt: number;
            p: { pos: V; mass: number; vel: V; id: number }[];
          };
          const moved = p.map((q, i) => {
            if (i >= count) return q;
            const vel = add(
              q.vel,
              [0, f32(f32(-9.5 * dt) / q.mass), 0].map((x) => f32(x)),
            );
            return { pos: add(q.pos, scale(vel, dt)), mass: q.mass, vel, id: (q.id * 2 + 1) >>> 0 };
          });
          return differences('ps', after.ps, { count, dt, p: moved });
        },
      },
    ],
  },
  {
    name: 'wide-types',
    runs: [
      {
        label: '64-bit integers past 2^53 and doubles',
        geometry: { groups: [1] },
        args: (seed) => {
          const r = random(seed);
          const big = (hi: number) => ((BigInt(hi) << 32n) | BigInt(r.int(0, 0xffffffff))).toString();
          return {
            w: {
              u: [big(r.int(0, 0xfffff)), big(0x7fffffff), '18446744073709551615', String(r.int(0, 1000))],
              s: big(r.int(0, 0x3fffffff)),
              d: [r.float() + 1 / 3, r.float() + 0.1],
            },
            p: { add: big(r.int(0, 0xffff)) },
          };
        },
        check: (args, after) => {
          const w = args.w as { u: string[]; s: string; d: V };
          const addend = BigInt((args.p as { add: string }).add);
          const json = (x: bigint) =>
            x >= BigInt(Number.MIN_SAFE_INTEGER) && x <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(x) : x.toString();
          const u = w.u.map((x) => json(BigInt.asUintN(64, BigInt(x) + addend)));
          return differences('w', after.w, {
            u,
            s: json(BigInt.asIntN(64, -BigInt(w.s) * 3n)),
            d: [w.d[0] * w.d[1], w.d[1]],
          });
        },
      },
    ],
  },
  {
    // HLSL through glslang's HLSL front end: a cbuffer named by its type (no instance), structured
    // buffers whose one member glslang names `@data`, a ConstantBuffer<T> push constant.
    name: 'hlsl-buffers',
    runs: [
      {
        label: 'cbuffer, structured buffers, push constant',
        geometry: { global: [64] },
        args: (seed) => {
          const r = random(seed);
          return {
            Params: { a: r.float(), n: r.int(0, 64), offset: vec(r, 3) },
            tint: { rgb: vec(r, 3), scale: r.float() },
            x: { '@data': vec(r, 64) },
            y: { '@data': list(64, () => vec(r, 4)) },
          };
        },
        check: (args, after) => {
          const { a, n, offset } = args.Params as { a: number; n: number; offset: V };
          const { rgb, scale } = args.tint as { rgb: V; scale: number };
          const x = (args.x as { '@data': V })['@data'];
          const y = (args.y as { '@data': V[] })['@data'];
          return differences('y', after.y, {
            '@data': y.map((v, i) =>
              i < n ? [f32(f32(a * x[i]) + offset[0]), offset[1], f32(rgb[2] * scale), v[3]] : v,
            ),
          });
        },
      },
    ],
  },
  {
    name: 'image-store',
    runs: [],
    refused:
      /resource 'img' \(set 0, binding 0\) is a storage image: kernarg's Vulkan host binds storage buffers, uniform buffers and push constants only/,
  },
];
