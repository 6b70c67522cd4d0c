// cuda's and zebin's drawings without a browser, against every fixture's golden JSON (lower()'s
// output, kept byte-identical by the golden tests) and `--format ptx`: the byte grids hold each
// parameter or payload entry at the plan's offset and size, nothing else; the tooltip's `.param`
// line is the one `--format ptx` prints; zebin's struct pieces sit where their source_offset pieces
// say, and the binding-table list has every stateful or BTI-backed argument.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { type LowerOptions, TARGET_RECORDS, lower } from '../../src/index.js';
import { drawingOf } from '../../web/src/draw/model.js';
import type { Box, Drawing, Lane } from '../../web/src/draw/parts.js';
import type { PlanJson } from '../../web/src/plan-json.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures');
const noFiles = { readFile: (): undefined => undefined };

function golden(target: 'cuda' | 'zebin'): { name: string; plan: PlanJson; ptx?: string }[] {
  const out = [];
  for (const name of readdirSync(FIXTURES)) {
    const file = join(FIXTURES, name, `${target}.json`);
    // A fixture the target refuses has its diagnostics there instead.
    if (!existsSync(file) || !readFileSync(file, 'utf8').startsWith('{')) continue;
    const ptx = join(FIXTURES, name, 'cuda.ptx.txt');
    out.push({
      name,
      plan: JSON.parse(readFileSync(file, 'utf8')) as PlanJson,
      ptx: existsSync(ptx) ? readFileSync(ptx, 'utf8') : undefined,
    });
  }
  return out;
}

/** Options as the page (and the CLI) sets them: through the target record's flags. */
function optionsOf(target: 'cuda' | 'zebin', flags: Readonly<Record<string, string>>): LowerOptions {
  let o: LowerOptions = { target };
  for (const [flag, value] of Object.entries(flags)) {
    const f = TARGET_RECORDS.find((r) => r.name === target)?.flags.find((x) => x.flag === flag);
    assert.ok(f && f.kind === 'choice', `${target} --${flag}`);
    o = f.apply(o, value);
  }
  return o;
}

function planOf(source: string, options: LowerOptions): PlanJson {
  const r = lower('kernel.cl', source, noFiles, { ...options, format: 'json' });
  assert.ok(r.output, r.diagnostics.map((d) => d.message).join('; '));
  return JSON.parse(r.output) as PlanJson;
}

const bytes = (d: Drawing): Lane & { kind: 'bytes' } => {
  const l = d.lanes[0];
  assert.equal(l.kind, 'bytes');
  return l as Lane & { kind: 'bytes' };
};
const list = (d: Drawing, title: RegExp) =>
  d.lanes.find((l): l is Lane & { kind: 'list' } => l.kind === 'list' && title.test(l.title));
const tipRow = (b: Box, key: string) => b.tipRows?.find(([k]) => k === key)?.[1];

function checkCuda(plan: PlanJson, ptx: string | undefined, where: string): number {
  let n = 0;
  for (const k of plan.kernels) {
    const d = drawingOf('cuda', plan, k);
    const grid = bytes(d);
    assert.equal(grid.size, k.paramBytes, `${where} ${k.name}: buffer size`);
    assert.deepEqual(
      grid.boxes.map((b) => [b.name, b.offset, b.size, b.align]),
      k.args.map((s) => [s.name, s.offset, s.size, s.align]),
      `${where} ${k.name}: parameters`,
    );
    // The tooltip's `.param` is the line --format ptx prints for the parameter.
    if (ptx !== undefined) {
      const entry = ptx.split(/\n(?=\t\/\/ \.globl)/).find((e) => new RegExp(`\\.entry ${k.name}\\(`).test(e));
      assert.ok(entry, `${where}: .entry ${k.name} in cuda.ptx.txt`);
      const lines = [...entry.matchAll(/^\t(\.param [^,\n]*),?$/gm)].map((m) => m[1]);
      assert.deepEqual(
        grid.boxes.map((b) => tipRow(b, '.param')),
        lines,
        `${where} ${k.name}: .param lines`,
      );
    }
    const params = list(d, /kernelParams/);
    assert.deepEqual(
      params?.rows.map((r) => [r.box.name, Number(r.cells[0]), Number(r.cells[1])]),
      k.args.map((s) => [s.name, s.index, s.size]),
    );
    const shared = list(d, /shared memory/);
    assert.deepEqual(
      shared?.rows.map((r) => r.box.name) ?? [],
      k.dynamicShared ?? [],
      `${where} ${k.name}: shared blocks`,
    );
    n++;
  }
  return n;
}

function checkZebin(plan: PlanJson, where: string): number {
  let n = 0;
  for (const k of plan.kernels) {
    const d = drawingOf('zebin', plan, k);
    const grid = bytes(d);
    assert.equal(grid.size, k.payloadSize, `${where} ${k.name}: payload size`);
    // Every payload entry (a struct's pieces one by one) and nothing else, at the plan's offset and size.
    const want = k.args.flatMap((s) =>
      s.addrmode === 'stateful' || !s.size
        ? []
        : s.pieces?.length
          ? s.pieces.map((p) => [s.name, p.offset, p.size, p.sourceOffset])
          : [[s.name, s.offset, s.size, undefined]],
    );
    assert.deepEqual(
      grid.boxes.map((b) => [b.key === null ? b.name : k.args[b.slot].name, b.offset, b.size, b.data.sourceOffset]),
      want,
      `${where} ${k.name}: payload`,
    );
    for (const b of grid.boxes) {
      const s = k.args[b.slot];
      assert.equal(tipRow(b, 'arg_type'), s.argType);
      assert.equal(
        b.mark,
        s.role === 'hidden' ? 'hidden' : s.param === null ? 'implicit' : 'arg',
        `${where} ${k.name} ${b.name}: mark`,
      );
      if (b.data.sourceOffset !== undefined) assert.equal(tipRow(b, 'source_offset'), String(b.data.sourceOffset));
    }
    const bti = list(d, /Binding-table/);
    assert.deepEqual(
      bti?.rows.map((r) => r.box.name) ?? [],
      k.args.filter((s) => s.bindingTable || s.addrmode === 'stateful').map((s) => s.name),
      `${where} ${k.name}: binding table`,
    );
    n++;
  }
  return n;
}

test("cuda: every fixture's parameter buffer drawn at lower()'s offsets and sizes, each tooltip's .param as --format ptx prints it", () => {
  let kernels = 0;
  for (const g of golden('cuda')) kernels += checkCuda(g.plan, g.ptx, g.name);
  assert.ok(kernels >= 20, `${kernels} kernels`);
});

test("cuda: pocl's local memory (.u32 offsets, its hidden arguments greyed) and nvptx's 32-bit pointers", () => {
  const src =
    'typedef struct { char c; long n; } S;\nkernel void k(global float *out, local int *a, local float2 *b, ' +
    'constant float4 *c, int n, S s, float3 v) { out[0] = n; }';
  for (const flags of [{ 'local-memory': 'pocl' }, { arch: 'nvptx' }, {}] as Readonly<Record<string, string>>[]) {
    const options = optionsOf('cuda', flags);
    const plan = planOf(src, options);
    const ptx = lower('kernel.cl', src, noFiles, { ...options, format: 'ptx' }).output;
    checkCuda(plan, ptx, JSON.stringify(flags));
    const pocl = 'local-memory' in flags;
    const d = drawingOf('cuda', plan, plan.kernels[0]);
    assert.deepEqual(
      list(d, /shared memory/)?.rows.map((r) => [r.box.name, r.cells[1]]),
      [
        ['a', pocl ? '.u32 offset' : '.shared address'],
        ['b', pocl ? '.u32 offset' : '.shared address'],
      ],
    );
    const hidden = bytes(d)
      .boxes.filter((b) => b.mark === 'hidden')
      .map((b) => b.name);
    assert.deepEqual(hidden, pocl ? ['_work_dim', '_global_offset_x', '_global_offset_y', '_global_offset_z'] : []);
  }
});

test("zebin: every fixture's cross-thread payload drawn at lower()'s offsets and sizes, struct pieces and binding-table entries", () => {
  let kernels = 0;
  for (const g of golden('zebin')) kernels += checkZebin(g.plan, g.name);
  assert.ok(kernels >= 20, `${kernels} kernels`);
});

test('zebin: pieces name the fields they carry; images and samplers only in the binding table; each device', () => {
  const src =
    'typedef struct { char tag; long count; } Stats;\nkernel void scale(global float *out, constant float *in, ' +
    'local float4 *tile, float k, Stats s, read_only image2d_t img, sampler_t smp) {\n  out[0] = in[0] * k + ' +
    'tile[0].x + s.count + read_imagef(img, smp, (int2)(0, 0)).x + get_image_width(img);\n}';
  for (const device of ['pvc', 'dg2', 'tgllp']) {
    const plan = planOf(src, optionsOf('zebin', { device }));
    checkZebin(plan, device);
    const d = drawingOf('zebin', plan, plan.kernels[0]);
    const pieces = bytes(d).boxes.filter((b) => b.slot === plan.kernels[0].args.findIndex((s) => s.name === 's'));
    assert.deepEqual(
      pieces.map((b) => [b.name, b.detail]),
      [
        ['s+0', 'holds tag'],
        ['s+8', 'holds count'],
      ],
      device,
    );
    const bti = list(d, /Binding-table/);
    assert.deepEqual(
      bti?.rows.map((r) => [r.box.name, r.cells[0]]),
      [
        ['out', 'global'],
        ['in', 'constant'],
        ['smp', 'sampler 0'],
        ['img', 'image_2d'],
      ],
      device,
    );
    assert.ok(
      !bytes(d).boxes.some((b) => b.name === 'img' || b.name === 'smp'),
      `${device}: images and samplers have no payload bytes`,
    );
  }
});
