import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';
import { CL_STDS, predefinedSource } from '../../src/frontend/opencl-c/predefined.js';
import { deliberateCases } from '../support/deliberate.js';
import { macros, OPENCL_FAMILY } from '../support/macros.js';
import { CLANG, requireTool } from '../support/tools.js';

const TARGETS = [
  { name: 'spir', pointerBits: 32, args: ['-target', 'spir'] },
  { name: 'spir64', pointerBits: 64, args: ['-target', 'spir64'] },
  { name: 'amdgcn', pointerBits: 64, args: ['-target', 'amdgcn-amd-amdhsa', '-mcpu=gfx900', '-nogpulib'] },
] as const;

test('predefined macros equal clang-16 -dM -E for every target and -cl-std', (t) => {
  const clang = requireTool(t, CLANG);
  if (!clang) return;
  const deliberate = deliberateCases('predefined');
  const seenDeliberate = new Set<string>();
  for (const target of TARGETS) {
    for (const std of CL_STDS) {
      const theirs = macros(
        execFileSync(clang, [...target.args, `-cl-std=${std}`, '-dM', '-E', '-x', 'cl', '/dev/null'], {
          encoding: 'utf8',
        }),
      );
      const ours = macros(predefinedSource(std, { name: target.name, pointerBits: target.pointerBits }));
      const where = `${target.name} ${std}`;
      for (const [name, value] of ours) {
        if (deliberate.has(name)) {
          assert.ok(
            !theirs.has(name) || theirs.get(name) !== value,
            `${name} is listed as deliberate but equals clang's (${where})`,
          );
          seenDeliberate.add(name);
          continue;
        }
        assert.ok(theirs.has(name), `kernarg defines ${name}, clang-16 does not (${where})`);
        assert.equal(value, theirs.get(name), `value of ${name} (${where})`);
      }
      for (const name of theirs.keys())
        if (OPENCL_FAMILY.test(name) && !name.includes('INTEL'))
          assert.ok(ours.has(name), `clang-16 defines ${name}, kernarg does not (${where})`);
    }
  }
  assert.deepEqual(
    [...seenDeliberate].sort(),
    [...deliberate].sort(),
    'every deliberate predefine file names a macro kernarg defines',
  );
});
