// The options of lower(): one shape for every target (each target's under its own name), a target
// name the compiler checks, the shared options refused in the same words by lower() and the
// command line, and old spellings of a choice still taken with a warning.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runCliOnFiles } from './support/cli-in-memory.js';
import { memoryHost } from '../src/frontend/opencl-c/index.js';
import { lower } from '../src/lower.js';
import type { AmdhsaPlan, OpenCLPlan, VulkanPlan } from '../src/index.js';
import { TARGET_RECORDS } from '../src/targets/index.js';
import { TARGET_NAMES } from '../src/targets/target-names.js';
import { declareFlags } from '../src/targets/flag-declarations.js';

const KERNEL = 'kernel void k0(global int *a, int n) {}\nkernel void k1(global int *b) {}\n';

const cli = (argv: string[], files: Record<string, string> = { 'k.cl': KERNEL }) => runCliOnFiles(argv, files);

test('a misspelled target does not compile, and lower() still refuses it with a diagnostic', () => {
  // @ts-expect-error: 'amdsha' is not a TargetName
  const r = lower('k.cl', KERNEL, memoryHost({}), { target: 'amdsha' });
  assert.equal(r.output, undefined);
  assert.equal(r.diagnostics[0].code, 'KA5002');
  assert.match(r.diagnostics[0].message, /^unknown target 'amdsha' \(choose from opencl, vulkan, amdhsa/);
});

test("the target names the compiler knows are the registry's, in its order", () => {
  assert.deepEqual(
    [...TARGET_NAMES],
    TARGET_RECORDS.map((t) => t.name),
  );
});

test("each target option of the command line lands in that target's own group of lower()'s options", () => {
  const json = (argv: string[]) => JSON.parse(cli(['lower', 'k.cl', '--format', 'json', ...argv]).stdout) as unknown;
  const lib = (o: Parameters<typeof lower>[3]) =>
    JSON.parse(lower('k.cl', KERNEL, memoryHost({}), { ...o, format: 'json' }).output!) as unknown;
  assert.deepEqual(
    json(['--target', 'amdhsa', '--code-object', '4', '--llvm', '16']),
    lib({ target: 'amdhsa', amdhsa: { codeObject: 4, llvm: 16 } }),
  );
  assert.deepEqual(json(['--target', 'opencl', '--arch', 'spir']), lib({ target: 'opencl', opencl: { arch: 'spir' } }));
  assert.deepEqual(
    json(['--target', 'zebin', '--device', 'dg2', '--private-memory']),
    lib({ target: 'zebin', zebin: { device: 'dg2', privateMemory: true } }),
  );
  assert.deepEqual(
    json(['--target', 'vulkan', '--arch', 'spir64']),
    lib({ target: 'vulkan', vulkan: { arch: 'spir64' } }),
  );
  // The group is what decides: the same value elsewhere changes nothing.
  const co4 = lower('k.cl', KERNEL, memoryHost({}), { target: 'amdhsa', format: 'json', amdhsa: { codeObject: 4 } })
    .plan as AmdhsaPlan;
  const dflt = lower('k.cl', KERNEL, memoryHost({}), { target: 'amdhsa', format: 'json', opencl: { arch: 'spir' } })
    .plan as AmdhsaPlan;
  assert.equal(co4.codeObject, 4);
  assert.equal(dflt.codeObject, 6);
  const spir = lower('k.cl', KERNEL, memoryHost({}), { target: 'opencl', format: 'json', opencl: { arch: 'spir' } })
    .plan as OpenCLPlan;
  assert.equal(spir.arch, 'spir');
});

test('the shared options are refused in the same words by lower() and by the command line', () => {
  const same = (argv: string[], options: Parameters<typeof lower>[3], path = 'k.cl') => {
    const lib = lower(path, KERNEL, memoryHost({}), options).diagnostics[0]?.message;
    assert.ok(lib, `lower() refuses ${JSON.stringify(options)}`);
    const r = cli(['lower', path, ...argv]);
    assert.equal(r.code, 2, r.stderr);
    assert.ok(r.stderr.includes(lib), `the command line says '${lib}':\n${r.stderr}`);
  };
  same(['--target', 'vulkn'], { target: 'vulkn' as never });
  same(['--target', 'amdhsa', '--format', 'clrx'], { target: 'amdhsa', format: 'clrx' });
  same(['--target', 'opencl', '--cl-std', 'CL2.1'], { target: 'opencl', std: 'CL2.1' as never });
  same(['--target', 'vulkan', '--format', 'spirv-asm'], { target: 'vulkan', format: 'spirv-asm' });
  same(['--target', 'opencl', '--format', 'opencl-c'], { target: 'opencl', format: 'opencl-c' });
});

test('--binding-scheme per-kernel | by-position; the old spellings seed and clspv still work, with a warning', () => {
  const bindings = (argv: string[]) => {
    const r = cli(['lower', 'k.cl', '--target', 'vulkan', '--format', 'json', ...argv]);
    assert.equal(r.code, 0, r.stderr);
    return { plan: JSON.parse(r.stdout) as VulkanPlan, stderr: r.stderr };
  };
  const perKernel = bindings(['--binding-scheme', 'per-kernel']);
  const byPosition = bindings(['--binding-scheme=by-position', '--cluster-pod-kernel-args=0']);
  assert.equal(perKernel.stderr, '');
  assert.deepEqual(perKernel.plan, bindings([]).plan, 'per-kernel is the default');
  assert.deepEqual(
    byPosition.plan.kernels.map((k) => k.args.map((a) => ('binding' in a ? a.binding : null))),
    [[0, 1], [0]],
  );
  const seed = bindings(['--binding-scheme', 'seed']);
  assert.deepEqual(seed.plan, perKernel.plan);
  assert.match(
    seed.stderr,
    /warning: --binding-scheme seed is an old spelling: it is --binding-scheme per-kernel now \[KA5008\]/,
  );
  const clspv = bindings(['-binding-scheme=clspv', '--cluster-pod-kernel-args=0']);
  assert.deepEqual(clspv.plan, byPosition.plan);
  assert.match(clspv.stderr, /--binding-scheme clspv is an old spelling: it is --binding-scheme by-position now/);
  // An old spelling is no choice of its own: help and the README name only the new ones.
  const scheme = TARGET_RECORDS.find((t) => t.name === 'vulkan')!.flags.find((f) => f.flag === 'binding-scheme')!;
  assert.ok(scheme.kind === 'choice');
  assert.deepEqual(scheme.choices, ['per-kernel', 'by-position']);
});

test("a flag declaration is checked against the field of lower()'s options it sets", () => {
  // @ts-expect-error: amdhsa's options have no field 'codeObjekt'
  declareFlags('amdhsa', [{ kind: 'choice', key: 'codeObjekt', flag: 'x', choices: [4], help: '' }]);
  // @ts-expect-error: 7 is no code object
  declareFlags('amdhsa', [{ kind: 'choice', key: 'codeObject', flag: 'x', choices: [7], help: '' }]);
  // @ts-expect-error: a byte count cannot set the zebin device
  declareFlags('zebin', [{ kind: 'count', key: 'device', flag: 'x', value: '<n>', help: '' }]);
  const [co, zeroOne] = declareFlags('vulkan', [
    { kind: 'choice', key: 'maxPushConstantSize', flag: 'm', choices: [64, 128], help: '' },
    { kind: 'zero-one', key: 'workDim', flag: 'w', default: true, help: '' },
  ]);
  assert.ok(co.kind === 'choice' && zeroOne.kind === 'choice');
  assert.equal(co.option, 'vulkan.maxPushConstantSize');
  assert.deepEqual(co.apply({ target: 'vulkan', vulkan: { podUbo: true } }, '64'), {
    target: 'vulkan',
    vulkan: { podUbo: true, maxPushConstantSize: 64 },
  });
  assert.deepEqual([zeroOne.choices, zeroOne.default], [['0', '1'], '1']);
  assert.deepEqual(zeroOne.apply({ target: 'vulkan' }, '0'), { target: 'vulkan', vulkan: { workDim: false } });
});

test("every flag of every target sets a field of that target's own group", () => {
  const groups: Record<string, string> = { 'amd-cl2': 'amdCl2' };
  for (const t of TARGET_RECORDS)
    for (const f of t.flags)
      assert.match(f.option, new RegExp(`^${groups[t.name] ?? t.name}\\.[a-z]\\w*$`), `${t.name} --${f.flag}`);
});
