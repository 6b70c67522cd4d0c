// The differential fuzz targets in npm test (their reference tools are required: under CI=true a
// missing clang-16 or OpenCL device fails the test): every regression input replays through the
// oracle without a disagreement, a short coverage-guided run with a fixed seed compares something
// and finds nothing, and a plan made wrong on purpose is reported (the comparison can fail).
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { AmdhsaPlan, OpenCLPlan } from '../src/abi/plan.js';
import { ClangBatchOracle, type Program } from './fuzz/differential/clang-batch.js';
import { regressionInputs, runFuzz } from './fuzz/driver.js';
import * as clangTarget from './fuzz/targets/opencl-c-clang.js';
import * as poclTarget from './fuzz/targets/tinytc-pocl.js';
import { testDevice } from './support/device.js';
import { CLANG, requireTool } from './support/tools.js';

const SECONDS = Number(process.env.KERNARG_FUZZ_SECONDS ?? 4);
const findingsDir = (target: string) => join(import.meta.dirname, '.tmp', 'fuzz-findings-differential', target);

async function shortRun(target: string): Promise<void> {
  rmSync(findingsDir(target), { recursive: true, force: true });
  const [s] = await runFuzz({
    targets: [target],
    seconds: SECONDS,
    seed: 32,
    findingsDir: findingsDir(target),
    slowMs: 30_000,
    hangMs: 120_000,
  });
  assert.ok(s.runs > 0 && s.blocks > 0, `${target} ran (${s.runs} inputs, ${s.blocks} blocks)`);
  assert.ok(
    s.oracle && Object.values(s.oracle)[0] > 0,
    `${target}'s oracle compared something: ${JSON.stringify(s.oracle)}`,
  );
  assert.deepEqual(
    s.findings.map((f) => `${f.what}: ${f.message.split('\n').slice(0, 3).join(' / ')} (${f.file})`),
    [],
    target,
  );
}

test('opencl-c-clang: regression inputs agree with clang-16, a short run finds nothing, a wrong slot is a finding', async (t) => {
  if (!requireTool(t, CLANG)) return;
  for (const { file, data } of regressionInputs('opencl-c-clang')) {
    clangTarget.fuzz(data);
    assert.deepEqual(
      clangTarget.differential.flush().map((d) => d.message),
      [],
      file,
    );
  }
  await shortRun('opencl-c-clang');
  // The same program with one slot made wrong on each side kernarg reports: both are disagreements.
  const input = new TextEncoder().encode('\u0010 generated program: these bytes are its choices');
  const real = clangTarget.program(input, 'f0');
  const wrong = (field: 'size' | 'offset'): Program => ({
    ...real,
    kernarg: (p) => {
      const r = real.kernarg(p);
      const bump = <K extends { args: readonly object[] }>(k: K) => ({
        ...k,
        args: k.args.map((a, i) =>
          i === 0 ? { ...a, [field]: Number((a as Record<string, unknown>)[field] ?? 0) + 1 } : a,
        ),
      });
      return {
        ...r,
        opencl: r.opencl && ({ ...r.opencl, kernels: r.opencl.kernels.map(bump) } as OpenCLPlan),
        amdhsa: r.amdhsa && ({ ...r.amdhsa, kernels: r.amdhsa.kernels.map(bump) } as AmdhsaPlan),
      };
    },
  });
  assert.ok(
    real.kernarg('f0').opencl?.kernels.some((k) => k.args.length),
    'the probe program has an argument',
  );
  const oracle = new ClangBatchOracle(requireTool(t, CLANG)!);
  try {
    assert.deepEqual(oracle.check([real]), [], 'the unchanged program agrees');
    const [sized] = oracle.check([wrong('size')]);
    assert.match(
      sized?.message ?? '',
      /arg 0: opencl size: kernarg 1, clang null\n.*arg 0: amdhsa size: kernarg 5, clang 4\n/,
    );
    const [placed] = oracle.check([wrong('offset')]);
    assert.match(placed?.message ?? '', /arg 0: amdhsa offset: kernarg 1, clang 0/);
  } finally {
    oracle.dispose();
  }
});

test('tinytc-pocl: regression inputs agree with the JS reference on the OpenCL device, a short run finds nothing', async (t) => {
  const ctx = testDevice(t);
  if (!ctx) return;
  ctx.dispose();
  for (const { file, data } of regressionInputs('tinytc-pocl')) {
    poclTarget.fuzz(data);
    assert.deepEqual(
      poclTarget.differential.flush().map((d) => d.message),
      [],
      file,
    );
  }
  await shortRun('tinytc-pocl');
});
