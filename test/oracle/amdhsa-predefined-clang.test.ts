import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';
import { CL_STDS, predefinedSource } from '../../src/frontend/opencl-c/predefined.js';
import { lower } from '../../src/lower.js';
import { memoryHost } from '../../src/frontend/opencl-c/index.js';
import { AMDHSA_LLVMS, type AmdhsaLlvm } from '../../src/targets/amdhsa/lower.js';
import { amdhsaTarget } from '../../src/targets/amdhsa/index.js';
import { deliberateCases } from '../support/deliberate.js';
import { macros, OPENCL_FAMILY } from '../support/macros.js';
import { CLANG, CLANG19, CLANG22_AMDHSA, requireTool } from '../support/tools.js';

const CLANGS = { 16: CLANG, 19: CLANG19, 22: CLANG22_AMDHSA } as const satisfies Record<AmdhsaLlvm, string[]>;

/**
 * The macros an amdhsa compile starts from: the shared amdgcn prelude, then the target's driver macros (null: `-U`), as
 * `lower` applies them.
 */
function kernargMacros(llvm: AmdhsaLlvm, std: (typeof CL_STDS)[number]): Map<string, string> {
  const out = macros(predefinedSource(std, { name: 'amdgcn', pointerBits: 64 }));
  for (const [name, value] of amdhsaTarget.predefines({ target: 'amdhsa', amdhsa: { llvm }, std })) {
    if (value === null) out.delete(name);
    else out.set(name, value);
  }
  return out;
}

for (const llvm of AMDHSA_LLVMS) {
  test(`amdhsa --llvm ${llvm}: predefined macros equal clang-${llvm} -dM -E (gfx900) for every -cl-std`, (t) => {
    const clang = requireTool(t, [...CLANGS[llvm]]);
    if (!clang) return;
    const deliberate = deliberateCases('predefined');
    for (const std of CL_STDS) {
      const theirs = macros(
        execFileSync(
          clang,
          [
            '-target',
            'amdgcn-amd-amdhsa',
            '-mcpu=gfx900',
            '-nogpulib',
            `-cl-std=${std}`,
            '-dM',
            '-E',
            '-x',
            'cl',
            '/dev/null',
          ],
          { encoding: 'utf8' },
        ),
      );
      const ours = kernargMacros(llvm, std);
      const where = `--llvm ${llvm} ${std}`;
      for (const [name, value] of ours) {
        if (deliberate.has(name)) continue; // reviewed in test/deliberate/ and checked by predefined-clang.test.ts
        assert.ok(theirs.has(name), `kernarg defines ${name}, clang-${llvm} does not (${where})`);
        assert.equal(value, theirs.get(name), `value of ${name} (${where})`);
      }
      for (const name of theirs.keys())
        if (OPENCL_FAMILY.test(name))
          assert.ok(ours.has(name), `clang-${llvm} defines ${name}, kernarg does not (${where})`);
    }
  });
}

test('amdhsa: the generation picks the branch of a wavefront-size guard, as its clang does', () => {
  const source =
    '#ifdef __AMDGCN_WAVEFRONT_SIZE\nkernel void k(global int *a, int b) {}\n#else\nkernel void k(global int *a) ' +
    '{}\n#endif\n';
  const args = (llvm: AmdhsaLlvm) => {
    const r = lower('k.cl', source, memoryHost({}), { target: 'amdhsa', amdhsa: { llvm }, format: 'json' });
    assert.ok(r.output !== undefined, `--llvm ${llvm}: ${JSON.stringify(r.diagnostics)}`);
    return (JSON.parse(r.output).kernels[0].args as { role: string }[]).filter((a) => a.role !== 'hidden').length;
  };
  assert.equal(args(16), 2);
  assert.equal(args(19), 2);
  assert.equal(args(22), 1);
});
