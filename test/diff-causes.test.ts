// kernarg diff names causes: an implicit block (amdhsa hidden arguments, r600's image words) that
// moves because an explicit argument changed is one row naming that argument, and the breaking
// count counts causes. Checked on a real darktable kernel edited as a user would (the new offsets
// against clang-19's own metadata, kernarg's default LLVM) and on generated one-argument edits.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { runCliWith } from '../src/cli/main.js';
import { EXIT_BREAKING } from '../src/cli/diff-command.js';
import { diffViews } from '../src/diff/compare.js';
import { abiView } from '../src/diff/view.js';
import { memoryHost } from '../src/frontend/opencl-c/index.js';
import { lower } from '../src/lower.js';
import type { TargetName } from '../src/targets/index.js';
import { CLANG19, parseAmdhsaMetadata, requireTool, runClang } from './support/tools.js';

const DARKTABLE = join(import.meta.dirname, 'real', 'darktable');

interface Row {
  change: string;
  kernel: string | null;
  slot: string | null;
  role: string | null;
  property: string | null;
  old: string | number | null;
  new: string | number | null;
  class: string;
  reason: string;
  cause: string | null;
  slots?: { slot: string; property: string; old: number; new: number }[];
}
interface DiffJson {
  summary: { breaking: number; compatible: number; consequences: number };
  changes: Row[];
}

/** `kernarg diff` in memory: old.cl and new.cl sit in darktable's folder, so their `#include`s find its headers. */
function diffDarktable(oldText: string, newText: string, format: 'json' | 'table', target = 'amdhsa') {
  const files: Record<string, string> = { [join(DARKTABLE, 'old.cl')]: oldText, [join(DARKTABLE, 'new.cl')]: newText };
  const readFile = (p: string) =>
    files[p] ??
    (() => {
      try {
        return readFileSync(p, 'utf8');
      } catch {
        return undefined;
      }
    })();
  let stdout = '';
  let stderr = '';
  const code = runCliWith(
    ['diff', join(DARKTABLE, 'old.cl'), join(DARKTABLE, 'new.cl'), '--target', target, '--format', format],
    { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), readFile, color: false },
  );
  return { code, stdout, stderr };
}

/** darktable's negadoctor kernel, its `gamma` made per channel (`float` → `float4`: `native_powr` takes both). */
const NEGADOCTOR = readFileSync(join(DARKTABLE, 'negadoctor.cl'), 'utf8');
const PER_CHANNEL = NEGADOCTOR.replace('const float gamma,', 'const float4 gamma,');

test('darktable negadoctor, gamma float → float4 on amdhsa: one cause; later arguments, the hidden block and the segment follow from it', () => {
  assert.notEqual(PER_CHANNEL, NEGADOCTOR);
  const r = diffDarktable(NEGADOCTOR, PER_CHANNEL, 'json');
  assert.equal(r.code, EXIT_BREAKING, r.stderr);
  const j = JSON.parse(r.stdout) as DiffJson;
  assert.deepEqual(j.summary, { breaking: 1, compatible: 0, consequences: 4 });
  // Every row is about gamma or names gamma as its cause.
  for (const c of j.changes) assert.ok(c.slot === 'gamma' ? c.cause === null : c.cause === 'gamma', JSON.stringify(c));
  const blocks = j.changes.filter((c) => c.change === 'block-moved');
  assert.equal(blocks.length, 1, 'the hidden block is one row');
  const [b] = blocks;
  assert.equal(b.role, 'hidden');
  assert.equal(b.class, 'breaking');
  assert.match(b.reason, /hidden block moves with 'gamma' \(size 4 → 16\)/);
  assert.equal(b.slots!.length, 19, 'every hidden argument of code object 5 moved');
  assert.ok(b.slots!.every((m) => m.property === 'offset' && m.new - m.old === 16));
  assert.equal(b.new, b.slots!.map((m) => m.new).join(','));
  const names = j.changes.filter((c) => c.change === 'slot-property' && c.cause === 'gamma').map((c) => c.slot);
  assert.deepEqual(names, ['soft_clip', 'soft_clip_comp']);
  assert.equal(j.changes.find((c) => c.property === 'segmentSize')!.cause, 'gamma');
});

test("darktable negadoctor: the moved hidden block's old and new offsets are clang-19's (kernarg's default LLVM)", (t) => {
  const clang = requireTool(t, CLANG19);
  if (!clang) return;
  const j = JSON.parse(diffDarktable(NEGADOCTOR, PER_CHANNEL, 'json').stdout) as DiffJson;
  const block = j.changes.find((c) => c.change === 'block-moved')!;
  const hidden = (source: string) => {
    const asm = runClang(
      clang,
      source,
      [
        '-cl-std=CL1.2',
        '-I',
        DARKTABLE,
        '-target',
        'amdgcn-amd-amdhsa',
        '-mcpu=gfx900',
        '-nogpulib',
        '-O0',
        '-S',
        '-mcode-object-version=5',
      ],
      undefined,
    );
    const k = parseAmdhsaMetadata(asm).get('negadoctor')!;
    return k.args.filter((a) => a['.value_kind']!.startsWith('hidden')).map((a) => Number(a['.offset']));
  };
  assert.deepEqual(
    block.slots!.map((m) => m.old),
    hidden(NEGADOCTOR),
  );
  assert.deepEqual(
    block.slots!.map((m) => m.new),
    hidden(PER_CHANNEL),
  );
});

test('darktable negadoctor: the table has one row for the hidden block, with the new offsets, and counts causes', () => {
  const r = diffDarktable(NEGADOCTOR, PER_CHANNEL, 'table');
  const lines = r.stdout.split('\n');
  assert.equal(lines[2], '1 breaking, 0 compatible; 4 consequences of them, class in parentheses');
  const block = lines.filter((l) => l.includes('block-moved'));
  assert.equal(block.length, 1);
  assert.match(
    block[0],
    /^\(breaking\)\s+negadoctor\s+hidden_block_count_x \.\. hidden_queue_ptr \(19\)\s+block-moved\s+offset\s+104,108,/,
  );
  assert.match(block[0], /\s120,124,128,132,134,136,138,140,142,160,168,176,184,200,208,216,224,232,320\s/);
  assert.ok(
    !lines.some((l) => /slot-property\s+offset/.test(l) && l.includes('hidden_')),
    'no hidden slot has a row of its own',
  );
});

test('darktable exposure (basic.cl), one float → float2 on amdhsa: 1 breaking cause instead of 23 breaking rows', () => {
  const basic = readFileSync(join(DARKTABLE, 'basic.cl'), 'utf8');
  const edited = basic.replace('const float black, const float scale)', 'const float black, const float2 scale)');
  assert.notEqual(edited, basic);
  const j = JSON.parse(diffDarktable(basic, edited, 'json').stdout) as DiffJson;
  assert.equal(j.summary.breaking, 1);
  assert.deepEqual(
    j.changes.filter((c) => c.cause === null).map((c) => c.slot),
    ['scale', 'scale', 'scale', 'scale', 'scale'],
  );
  assert.equal(j.changes.filter((c) => c.change === 'block-moved').length, 1);
});

test('a hidden block that moves for another reason (code object 4 → 5) keeps a row per slot', () => {
  const k = 'kernel void k(global int *a, int n) {}\n';
  let out = '';
  runCliWith(
    ['diff', 'a.cl', 'a.cl', '--target', 'amdhsa', '--llvm', '16', '--old-opt', '--code-object=4', '--format', 'json'],
    { stdout: (t) => (out += t), stderr: () => {}, readFile: () => k, color: false },
  );
  const j = JSON.parse(out) as DiffJson;
  assert.ok(!j.changes.some((c) => c.change === 'block-moved'));
  const moved = j.changes.find((c) => c.slot === 'hidden_global_offset_x' && c.property === 'offset')!;
  assert.equal(moved.cause, null);
  assert.equal(moved.class, 'breaking');
});

// Generated: one explicit argument of a kernel changes type; whatever else moves must name it.
const TYPES = [
  'char',
  'short',
  'int',
  'long',
  'float',
  'double',
  'char3',
  'short2',
  'int2',
  'int3',
  'float4',
  'long2',
  'double2',
  'global float *',
  'constant int *',
] as const;

function plan(source: string, target: TargetName) {
  const r = lower('k.cl', source, memoryHost({}), { target, format: 'json' });
  assert.ok(r.plan, r.diagnostics.map((d) => d.message).join('\n') + '\n' + source);
  return r.plan;
}

for (const target of ['amdhsa', 'r600', 'opencl', 'vulkan'] as const satisfies readonly TargetName[]) {
  test(`generated one-argument edits on ${target}: one breaking cause, every other row follows from it, implicit slots in at most one row`, () => {
    const sig = fc.array(fc.constantFrom(...TYPES), { minLength: 1, maxLength: 7 });
    fc.assert(
      fc.property(sig, fc.nat(), fc.constantFrom(...TYPES), (types, at, to) => {
        const i = at % types.length;
        fc.pre(types[i] !== to);
        const src = (ts: readonly string[]) =>
          `${ts.some((x) => x.startsWith('double')) || to.startsWith('double') ? '#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n' : ''}kernel void k(${ts.map((x, j) => `${x} p${j}`).join(', ')}, read_only image2d_t im) {}\n`;
        const after = [...types];
        after[i] = to;
        const r = diffViews(abiView(plan(src(types), target)), abiView(plan(src(after), target)));
        // Module facts (vulkan's capabilities and features for a new scalar type) are requirements of their own.
        const kernelRows = r.changes.filter((c) => c.change !== 'module-property');
        for (const c of kernelRows) {
          if (c.slot === `p${i}`) assert.equal(c.cause, null);
          else assert.equal(c.cause, `p${i}`, `${target} ${types.join(',')} p${i} → ${to}: ${JSON.stringify(c)}`);
        }
        const moduleCauses = new Set(r.changes.filter((c) => c.change === 'module-property').map((c) => c.property))
          .size;
        assert.ok(r.breaking + r.compatible <= 1 + moduleCauses);
        assert.ok(r.changes.filter((c) => c.change === 'block-moved').length <= 1);
        assert.ok(
          !r.changes.some((c) => c.param === null && c.change !== 'block-moved' && c.slot !== null),
          'implicit slots only in the block row',
        );
      }),
      { numRuns: 80, seed: 2026 },
    );
  });
}
