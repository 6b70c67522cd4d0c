// A KernelModule built by hand, without a frontend, lowered through every registered target: each
// target's every format gives what the same kernel written in OpenCL C gives.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DiagnosticBag } from '../src/diagnostics/diagnostic.js';
import { SourceFile } from '../src/diagnostics/source.js';
import { lower } from '../src/lower.js';
import type { KernelModule, Parameter } from '../src/model/kernel-module.js';
import { TARGET_RECORDS } from '../src/targets/index.js';
import { type QualType, q, scalar } from '../src/types/types.js';

const SOURCE = 'kernel void scale(global float* out, float factor, int n, local float* tile) {}\n';

function handBuilt(target: (typeof TARGET_RECORDS)[number]): KernelModule {
  const file = new SourceFile('scale.cl', SOURCE);
  const at = (text: string) => ({ file, start: SOURCE.indexOf(text), end: SOURCE.indexOf(text) + text.length });
  const param = (index: number, name: string, type: QualType, text: string): Parameter => ({
    index,
    name,
    type,
    span: at(text),
  });
  const params = [
    param(0, 'out', q({ kind: 'pointer', pointee: q(scalar('float'), { space: 'global' }) }), 'global float* out'),
    param(1, 'factor', q(scalar('float')), 'float factor'),
    param(2, 'n', q(scalar('int')), 'int n'),
    param(3, 'tile', q({ kind: 'pointer', pointee: q(scalar('float'), { space: 'local' }) }), 'local float* tile'),
  ];
  return {
    language: 'opencl-c',
    path: 'scale.cl',
    clVersion: 120,
    layout: target.layout({ target: target.name }),
    extensions: [],
    functions: [
      {
        name: 'scale',
        isKernel: true,
        result: q(scalar('void')),
        params,
        attributes: {},
        defined: true,
        calls: [],
        uses: [],
        span: at('scale'),
      },
    ],
    variables: [],
    samplers: [],
    records: [],
  };
}

for (const target of TARGET_RECORDS) {
  test(`a hand-built KernelModule lowers through ${target.name} as its OpenCL C does`, () => {
    const module = handBuilt(target);
    const diags = new DiagnosticBag();
    const lowered = target.lower(module, { target: target.name }, diags);
    assert.deepEqual(diags.items, []);
    assert.ok(lowered, `${target.name} gave no plan`);
    assert.equal(lowered.plan.target, target.name);
    assert.deepEqual(
      lowered.plan.kernels.map((k) => k.name),
      ['scale'],
    );
    // Every parameter has its slot (vulkan puts the PODs last).
    assert.deepEqual(
      lowered.plan.kernels[0].args
        .filter((a) => a.param !== null)
        .map((a) => a.name)
        .sort(),
      ['factor', 'n', 'out', 'tile'],
    );
    for (const format of target.formats) {
      const fromSource = lower('scale.cl', SOURCE, { readFile: () => undefined }, { target: target.name, format });
      assert.deepEqual(fromSource.diagnostics, []);
      const output = lowered.render(format, { module, options: { target: target.name } });
      assert.equal(output, fromSource.output, `${target.name} --format ${format}`);
    }
  });
}
