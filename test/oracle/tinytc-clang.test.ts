import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { AmdhsaPlan, OpenCLPlan } from '../../src/abi/plan.js';
import { memoryHost } from '../../src/frontend/opencl-c/index.js';
import { lower } from '../../src/lower.js';
import { FIXTURES } from '../support/fixtures.js';
import { irFunction, renderIr } from '../support/gen-tinytc.js';
import { inBatches, samples } from '../support/gen.js';
import {
  CLANG,
  LLVM_AS,
  llvmAsErrors,
  parseAmdhsaMetadata,
  parseKernelMetadata,
  requireTool,
  runClang,
} from '../support/tools.js';

const SPIR_ADDR: Record<number, string> = { 1: 'global', 2: 'constant', 3: 'local' };

/** The emitted OpenCL C compiles with clang-16 and its kernel_arg_* metadata equals kernarg's plan for the .ir. */
function compareIr(clang: string, ir: string): number {
  const c = lower('k.ir', ir, memoryHost({}), { target: 'opencl', format: 'opencl-c' });
  assert.ok(c.output, c.diagnostics.map((d) => d.message).join('\n') + '\n' + ir);
  const plan = c.plan as OpenCLPlan;
  const md = parseKernelMetadata(
    runClang(clang, c.output, ['-cl-std=CL2.0', '-target', 'spir64', '-emit-llvm', '-S', '-O0', '-cl-kernel-arg-info']),
  );
  for (const k of plan.kernels) {
    const m = md.get(k.name);
    assert.ok(m, `clang has no kernel ${k.name}\n${c.output}`);
    const where: string = `${k.name}\n${ir}\n${c.output}`;
    assert.deepEqual(
      k.args.map((a) => a.name),
      m.argName,
      where,
    );
    assert.deepEqual(
      k.args.map((a) => a.typeName),
      m.type,
      where,
    );
    assert.deepEqual(
      k.args.map((a) => (a.kind === 'buffer' ? a.addressSpace : 'private')),
      m.addrSpace.map((n) => SPIR_ADDR[n] ?? 'private'),
      where,
    );
    assert.deepEqual(k.reqdWorkGroupSize, m.reqdWorkGroupSize, where);
    assert.equal(k.intelReqdSubGroupSize, m.intelReqdSubGroupSize, where);
  }
  return plan.kernels.length;
}

test('tinytc: OpenCL C for the fixtures compiles with clang-16 and its metadata equals kernarg', (t) => {
  const clang = requireTool(t, CLANG);
  if (!clang) return;
  for (const name of ['tinytc-seed', 'tinytc-kernels'])
    compareIr(clang, readFileSync(join(FIXTURES, name, 'input.ir'), 'utf8'));
});

test('tinytc: 300+ generated signatures agree with clang-16', (t) => {
  const clang = requireTool(t, CLANG);
  if (!clang) return;
  const { values, seed } = samples(irFunction, 320, 31337);
  const n = inBatches(values, 40, seed, (batch, start) =>
    compareIr(clang, batch.map((f, i) => renderIr(f as never, `f${start + i}`)).join('')),
  );

  assert.ok(n >= 300);
});

test('tinytc: .ir lowers through amdhsa (clang-16 oracle) and llvm (llvm-as-16, clang metadata)', (t) => {
  const clang = requireTool(t, CLANG);
  const llvmAs = requireTool(t, LLVM_AS);
  if (!clang || !llvmAs) return;
  const ir = readFileSync(join(FIXTURES, 'tinytc-kernels', 'input.ir'), 'utf8');
  const c = lower('k.ir', ir, memoryHost({}), { target: 'opencl', format: 'opencl-c' }).output!;
  const hsa = lower('k.ir', ir, memoryHost({}), { target: 'amdhsa', format: 'json', amdhsa: { llvm: 16 } })
    .plan as AmdhsaPlan;
  const theirs = parseAmdhsaMetadata(
    runClang(clang, c, [
      '-cl-std=CL2.0',
      '-target',
      'amdgcn-amd-amdhsa',
      '-mcpu=gfx900',
      '-nogpulib',
      '-O0',
      '-S',
      '-mcode-object-version=5',
    ]),
  );
  for (const k of hsa.kernels) {
    assert.deepEqual(
      k.args.map((a) => `${a.offset}:${a.size}:${a.valueKind}`),
      theirs.get(k.name)!.args.map((a) => `${a['.offset']}:${a['.size']}:${a['.value_kind']}`),
      k.name,
    );
    assert.equal(String(k.kernargSegmentSize), theirs.get(k.name)!.props['.kernarg_segment_size']);
  }
  const ll = lower('k.ir', ir, memoryHost({}), {
    target: 'llvm',
    format: 'llvm-ir',
    llvm: { kernelArgInfo: true },
  }).output!;
  assert.equal(llvmAsErrors(llvmAs, ll), '');
  const mine = parseKernelMetadata(ll);
  const ref = parseKernelMetadata(
    runClang(clang, c, ['-cl-std=CL2.0', '-target', 'spir64', '-emit-llvm', '-S', '-O0', '-cl-kernel-arg-info']),
  );
  for (const [name, m] of mine) {
    const r = ref.get(name)!;
    for (const key of [
      'addrSpace',
      'accessQual',
      'type',
      'baseType',
      'typeQual',
      'argName',
      'reqdWorkGroupSize',
      'intelReqdSubGroupSize',
    ] as const)
      assert.deepEqual(m[key], r[key], `${name} ${key}`);
  }
});
