import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { compileOpenCL, memoryHost } from '../../src/frontend/opencl-c/index.js';
import { SourceFile } from '../../src/diagnostics/source.js';
import { DATA_LAYOUTS, type DataLayout } from '../../src/layout/data-layout.js';
import { inBatches, programSpec, render, samples } from '../support/gen.js';
import { CLANG, requireTool, runClang } from '../support/tools.js';

const TRIPLES: Record<DataLayout['name'], string[]> = {
  spir: ['-target', 'spir'],
  spir64: ['-target', 'spir64'],
  amdgcn: ['-target', 'amdgcn-amd-amdhsa', '-nogpulib'],
};

/** `constant char NAME[EXPR + 1]` probes: the array length is the value, for clang and kernarg alike. */
function probes(records: { spelling: string; fields: string[] }[], prefix: string): string {
  const lines: string[] = [];
  records.forEach((r, i) => {
    lines.push(`constant char ${prefix}${i}_size[sizeof(${r.spelling}) + 1] = {0};`);
    lines.push(`constant char ${prefix}${i}_align[__alignof__(${r.spelling}) + 1] = {0};`);
    r.fields.forEach((f) =>
      lines.push(`constant char ${prefix}${i}_off_${f}[__builtin_offsetof(${r.spelling}, ${f}) + 1] = {0};`),
    );
  });
  return lines.join('\n') + '\n';
}

function clangProbeValues(clang: string, source: string, layout: DataLayout['name']): Map<string, number> {
  const ir = runClang(clang, source, ['-cl-std=CL1.2', ...TRIPLES[layout], '-emit-llvm', '-S', '-O0']);
  const out = new Map<string, number>();
  for (const m of ir.matchAll(/^@(\w+) = .*?\[(\d+) x i8\]/gm)) out.set(m[1], Number(m[2]) - 1);
  return out;
}

function kernargProbeValues(source: string, layout: DataLayout['name']): Map<string, number> {
  const r = compileOpenCL(new SourceFile('probe.cl', source), memoryHost({}), {
    layout: DATA_LAYOUTS[layout],
    std: 'CL1.2',
  });
  assert.ok(r.module, r.diagnostics.items.map((d) => d.message).join('\n') + '\n' + source);
  return new Map(r.module.variables.map((v) => [v.name, v.bytes.length - 1]));
}

function compareProbes(clang: string, source: string): number {
  let n = 0;
  for (const layout of ['spir', 'spir64', 'amdgcn'] as const) {
    const theirs = clangProbeValues(clang, source, layout);
    const ours = kernargProbeValues(source, layout);
    assert.ok(theirs.size > 0 || ours.size === 0);
    for (const [name, v] of theirs) {
      assert.equal(ours.get(name), v, `${layout}: ${name}\n${source}`);
      n++;
    }
  }
  return n;
}

test('struct and union layouts equal clang-16 field by field on spir, spir64 and amdgcn', (t) => {
  const clang = requireTool(t, CLANG);
  if (!clang) return;
  const { values, seed } = samples(programSpec, 150, 424242);
  const checked = inBatches(values, 30, seed, (batch, start) => {
    const rendered = batch.map((spec, i) => render({ ...spec, kernels: [] }, `L${start + i}`));
    const source =
      rendered.map((r) => r.source).join('') +
      probes(
        rendered.flatMap((r) => r.records),
        'probe',
      );
    return compareProbes(clang, source);
  });
  assert.ok(checked > 1000, `only ${checked} probes`);
});

const BITFIELD_TYPES = ['char', 'uchar', 'short', 'ushort', 'int', 'uint', 'long', 'ulong'] as const;
const BITS: Record<string, number> = {
  char: 8,
  uchar: 8,
  short: 16,
  ushort: 16,
  int: 32,
  uint: 32,
  long: 64,
  ulong: 64,
};

const bitfieldStruct = fc.record({
  packed: fc.boolean(),
  fields: fc.array(
    fc.record({
      type: fc.constantFrom(...BITFIELD_TYPES),
      width: fc.nat(64),
      plain: fc.boolean(),
      named: fc.boolean(),
    }),
    { minLength: 1, maxLength: 7 },
  ),
});

test('bit-field layouts (with __cl_clang_bitfields) equal clang-16', (t) => {
  const clang = requireTool(t, CLANG);
  if (!clang) return;
  const { values, seed } = samples(bitfieldStruct, 120, 99);
  let source = '#pragma OPENCL EXTENSION __cl_clang_bitfields : enable\n';
  const records: { spelling: string; fields: string[] }[] = [];
  values.forEach((s, i) => {
    const plainFields: string[] = [];
    const fields = s.fields.map((f, j) => {
      if (f.plain) {
        plainFields.push(`m${j}`);
        return `${f.type} m${j};`;
      }
      const width = f.width % (BITS[f.type] + 1);
      return width === 0 || !f.named ? `${f.type} : ${width};` : `${f.type} b${j} : ${width};`;
    });
    source += `struct B${i} { ${fields.join(' ')} }${s.packed ? ' __attribute__((packed))' : ''};\n`;
    records.push({ spelling: `struct B${i}`, fields: plainFields });
  });
  source += probes(records, 'bprobe');
  try {
    assert.ok(compareProbes(clang, source) >= 720);
  } catch (e) {
    throw new Error(`seed ${seed}: ${(e as Error).message}`);
  }
});
