// Generated blocks as an oracle for the shader packer: fast-check makes a list of members (scalars,
// vectors — vec3 among them — matrices, arrays, structs, doubles) and a GLSL shader that copies a
// std140 uniform block of them, member by member, into a std430 storage block of the same members
// (and a push-constant block into another). glslangValidator lays both out; spirv-cross --reflect
// must read the same member offsets as kernarg's reader; and on lavapipe the values kernarg packed
// by the uniform block's layout must come back, read by the storage block's, unchanged: a value
// packed at the wrong offset, or read from one, shows up as a different value.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import type { ValueLayout } from '../src/layout/value-layout.js';
import { readSpirv } from '../src/readers/spirv.js';
import { VulkanShader } from '../src/runtime/vulkan/shader.js';
import type { VulkanPlan } from '../src/targets/vulkan/plan.js';
import { GLSLANG } from './support/glsl.js';
import { SPIRV_CROSS } from './support/spirv-check.js';
import { requireTool } from './support/tools.js';
import { testVulkan } from './support/vulkan-device.js';

type Leaf = { kind: 'leaf'; glsl: string; scalar: 'float' | 'int' | 'uint' | 'double'; columns: number; rows: number };
type Member = { type: Leaf | { kind: 'struct'; index: number }; array?: number };
interface Block {
  structs: Member[][];
  members: Member[];
  push: Member[];
}

const LEAVES: Leaf[] = [
  ...(['float', 'int', 'uint', 'double'] as const).flatMap((scalar) => {
    const prefix = { float: '', int: 'i', uint: 'u', double: 'd' }[scalar];
    return [
      { kind: 'leaf' as const, glsl: scalar, scalar, columns: 1, rows: 1 },
      ...[2, 3, 4].map((n) => ({ kind: 'leaf' as const, glsl: `${prefix}vec${n}`, scalar, columns: 1, rows: n })),
    ];
  }),
  ...[2, 3, 4].map((n) => ({ kind: 'leaf' as const, glsl: `mat${n}`, scalar: 'float' as const, columns: n, rows: n })),
  { kind: 'leaf', glsl: 'mat2x3', scalar: 'float', columns: 2, rows: 3 },
  { kind: 'leaf', glsl: 'mat3x2', scalar: 'float', columns: 3, rows: 2 },
];

const leaf = fc.constantFrom(...LEAVES);
const member = (structs: number) =>
  fc.record(
    {
      type:
        structs > 0
          ? fc.oneof(
              { weight: 4, arbitrary: leaf },
              {
                weight: 1,
                arbitrary: fc
                  .integer({ min: 0, max: structs - 1 })
                  .map((index) => ({ kind: 'struct' as const, index })),
              },
            )
          : leaf,
      array: fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined, freq: 3 }),
    },
    { requiredKeys: ['type'] },
  ) as fc.Arbitrary<Member>;
/** Structs may hold earlier structs only; push constants hold no matrices or arrays, to stay within 128 bytes. */
const block: fc.Arbitrary<Block> = fc.integer({ min: 0, max: 2 }).chain((n) =>
  fc.record({
    structs: fc.tuple(
      ...Array.from({ length: n }, (_, i) => fc.array(member(i), { minLength: 1, maxLength: 3 })),
    ) as fc.Arbitrary<Member[][]>,
    members: fc.array(member(n), { minLength: 1, maxLength: 6 }),
    push: fc.array(
      fc.record({ type: fc.constantFrom(...LEAVES.filter((l) => l.columns === 1)) }) as fc.Arbitrary<Member>,
      { minLength: 1, maxLength: 3 },
    ),
  }),
);

const typeName = (m: Member) => (m.type.kind === 'leaf' ? m.type.glsl : `S${m.type.index}`);
const decls = (ms: Member[], prefix: string) =>
  ms.map((m, i) => `  ${typeName(m)} ${prefix}${i}${m.array ? `[${m.array}]` : ''};`).join('\n');

function glsl(b: Block): string {
  return [
    '#version 450',
    'layout(local_size_x = 1) in;',
    ...b.structs.map((s, i) => `struct S${i} {\n${decls(s, 'f')}\n};`),
    `layout(std140, set = 0, binding = 0) uniform U {\n${decls(b.members, 'm')}\n} u;`,
    `layout(std430, set = 0, binding = 1) buffer O {\n${decls(b.members, 'm')}\n} o;`,
    `layout(push_constant) uniform P {\n${decls(b.push, 'k')}\n} p;`,
    `layout(std430, set = 1, binding = 0) buffer Q {\n${decls(b.push, 'k')}\n} q;`,
    `void main() {\n${b.members.map((_, i) => `  o.m${i} = u.m${i};`).join('\n')}\n${b.push.map((_, i) => `  q.k${i} = p.k${i};`).join('\n')}\n}`,
    '',
  ].join('\n');
}

/** A value for a member, from a seeded counter: quarters for floats (exact), integers in range. */
function value(b: Block, m: Member, next: () => number): unknown {
  const one = (): unknown => {
    const t = m.type;
    if (t.kind === 'struct') return Object.fromEntries(b.structs[t.index].map((f, i) => [`f${i}`, value(b, f, next)]));
    const scalar = () =>
      t.scalar === 'float' || t.scalar === 'double'
        ? (next() % 257) / 4 - 32
        : t.scalar === 'int'
          ? (next() % 20001) - 10000
          : next() % 4000000000;
    const column = () => (t.rows === 1 ? scalar() : Array.from({ length: t.rows }, scalar));
    return t.columns === 1 ? column() : Array.from({ length: t.columns }, column);
  };
  return m.array ? Array.from({ length: m.array }, one) : one();
}

/** Member names with offsets and strides as spirv-cross --reflect states them, and as kernarg's layout does. */
type Shape = { name: string; offset: number; stride?: number; members?: Shape[] };
function crossShape(
  types: Record<
    string,
    { members: { name: string; type: string; offset: number; array_stride?: number; matrix_stride?: number }[] }
  >,
  id: string,
): Shape[] {
  return types[id].members.map((m) => ({
    name: m.name,
    offset: m.offset,
    ...(m.array_stride ? { stride: m.array_stride } : m.matrix_stride ? { stride: m.matrix_stride } : {}),
    ...(types[m.type] ? { members: crossShape(types, m.type) } : {}),
  }));
}
function ourShape(l: ValueLayout): Shape[] {
  if (l.kind !== 'record') return [];
  return l.fields.map((f) => {
    const inner = f.layout.kind === 'array' && f.layout.element.kind === 'record' ? f.layout.element : f.layout;
    // An array's stride is its array stride; a matrix is an array of columns whose stride is the matrix stride.
    return {
      name: f.name ?? '',
      offset: f.offset,
      ...(f.layout.kind === 'array' ? { stride: f.layout.stride } : {}),
      ...(inner.kind === 'record' ? { members: ourShape(inner) } : {}),
    };
  });
}

test('generated std140 uniform and push-constant blocks: kernarg reads their layouts as spirv-cross does, and what it packs the shader copies back unchanged', (t) => {
  const glslang = requireTool(t, GLSLANG, ['--version']);
  const cross = requireTool(t, SPIRV_CROSS, ['--help']);
  if (!glslang || !cross) return;
  const ctx = testVulkan(t);
  if (!ctx) return;
  const dir = mkdtempSync(join(tmpdir(), 'kernarg-blocks-'));
  let n = 0;
  try {
    fc.assert(
      fc.property(block, fc.integer({ min: 1, max: 1 << 30 }), (b, seed) => {
        const source = glsl(b);
        writeFileSync(join(dir, 'b.comp'), source);
        execFileSync(glslang, ['-V', join(dir, 'b.comp'), '-o', join(dir, 'b.spv')], {
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        const spirv = new Uint8Array(readFileSync(join(dir, 'b.spv')));
        const plan = readSpirv(spirv, 'b.spv').plan as VulkanPlan;
        const reflect = JSON.parse(execFileSync(cross, [join(dir, 'b.spv'), '--reflect'], { encoding: 'utf8' })) as {
          types: Record<
            string,
            { members: { name: string; type: string; offset: number; array_stride?: number; matrix_stride?: number }[] }
          >;
          ubos: { name: string; type: string }[];
          ssbos: { name: string; type: string }[];
          push_constants: { name: string; type: string }[];
        };
        const byName = (name: string) => plan.kernels[0].args.find((a) => a.name === name)!.layout!;
        const want = (list: { name: string; type: string }[], name: string) =>
          crossShape(reflect.types, list.find((x) => x.name === name)!.type);
        assert.deepEqual(ourShape(byName('u')), want(reflect.ubos, 'U'), `std140 block of\n${source}`);
        assert.deepEqual(ourShape(byName('o')), want(reflect.ssbos, 'O'), `std430 block of\n${source}`);
        assert.deepEqual(ourShape(byName('p')), want(reflect.push_constants, 'p'), `push constants of\n${source}`);
        let counter = seed;
        const next = () => (counter = (Math.imul(counter, 1103515245) + 12345) >>> 0);
        const u = Object.fromEntries(b.members.map((m, i) => [`m${i}`, value(b, m, next)]));
        const p = Object.fromEntries(b.push.map((m, i) => [`k${i}`, value(b, m, next)]));
        const shader = new VulkanShader(ctx, spirv);
        try {
          const r = shader.run({ u, o: {}, p, q: {} }, { groups: [1] });
          assert.deepEqual(r.args.o, u, `the std430 copy of the std140 block of\n${source}`);
          assert.deepEqual(r.args.q, p, `the copy of the push constants of\n${source}`);
        } finally {
          shader.dispose();
        }
        n++;
      }),
      { numRuns: Number(process.env.KERNARG_FC_RUNS ?? 12), seed: 4029 },
    );
    t.diagnostic(`${n} generated blocks: layouts equal to spirv-cross, values round-tripped through the device`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    ctx.dispose();
  }
});
