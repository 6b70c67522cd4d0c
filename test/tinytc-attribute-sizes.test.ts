// work_group_size and subgroup_size are int32 in tinytc. Every size kernarg accepts is spelled into
// reqd_work_group_size / intel_reqd_sub_group_size that clang-16 compiles; a larger one is KA2019 on the
// attribute, not spliced (the fuzzer found `subgroup_size(214748364716)` printed as is, which clang refuses).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { memoryHost } from '../src/frontend/opencl-c/index.js';
import { lower } from '../src/lower.js';
import { samples } from './support/gen.js';
import { CLANG, requireTool, runClang } from './support/tools.js';

const host = memoryHost({});
const I32_MAX = 2 ** 31 - 1;
const openclC = (ir: string) => lower('k.ir', ir, host, { target: 'opencl', format: 'opencl-c' });

/** One function's attributes in either dialect. */
function func(name: string, v04: boolean, wg: [number, number] | null, sg: number | null): string {
  if (v04) {
    const attrs = [wg && `work_group_size=[${wg[0]},${wg[1]}]`, sg && `subgroup_size=${sg}`].filter(Boolean);
    return `func @${name}(%n: i32)${attrs.length ? ` attributes{${attrs.join(', ')}}` : ''} {\n}\n`;
  }
  return `func @${name}(%n: i32)${wg ? ` work_group_size(${wg[0]}, ${wg[1]})` : ''}${sg ? ` subgroup_size(${sg})` : ''} {\n}\n`;
}
const V04 = '; tinytc v0.4\n';

test('tinytc attribute sizes: every accepted work_group_size / subgroup_size compiles with clang-16, both dialects', (t) => {
  const clang = requireTool(t, CLANG);
  if (!clang) return;
  const size = fc.oneof(fc.integer({ min: 1, max: 64 }), fc.integer({ min: 1, max: I32_MAX }), fc.constant(I32_MAX));
  const { values, seed } = samples(
    fc.array(fc.tuple(fc.option(fc.tuple(size, size)), fc.option(size)), { minLength: 8, maxLength: 8 }),
    2,
    9031,
  );
  let compiled = 0;
  for (const v04 of [false, true]) {
    for (const attrs of values) {
      const ir = (v04 ? V04 : '') + attrs.map(([wg, sg], i) => func(`k${i}`, v04, wg, sg)).join('');
      const r = openclC(ir);
      assert.ok(r.output, `seed ${seed}\n${ir}\n${r.diagnostics.map((d) => d.message).join('\n')}`);
      runClang(clang, r.output, ['-target', 'spir64', '-cl-std=CL2.0', '-fsyntax-only', '-x', 'cl']);
      compiled += attrs.length;
    }
  }
  t.diagnostic(`${compiled} functions compiled by clang-16`);
});

test('tinytc attribute sizes: a size past i32 is KA2019 on its attribute in both dialects', () => {
  for (const v04 of [false, true]) {
    for (const [wg, sg] of [
      [[I32_MAX + 1, 1], null],
      [[1, 214748364716], null],
      [null, 214748364716],
      [null, I32_MAX + 1],
    ] as const) {
      const ir = (v04 ? V04 : '') + func('k', v04, wg as [number, number] | null, sg);
      const r = openclC(ir);
      assert.equal(r.output, undefined, ir);
      assert.deepEqual(
        r.diagnostics.map((d) => d.code),
        ['KA2019'],
        ir,
      );
      assert.match(r.diagnostics[0].message, /i32 \(at most 2147483647\)/);
      const at = ir.slice(r.diagnostics[0].span!.start, r.diagnostics[0].span!.end);
      // v0.3 underlines the attribute, v0.4 its value; either way the size past i32 is inside.
      assert.ok(at.includes(String(wg ? Math.max(...wg) : sg)), `${at}\n${ir}`);
    }
  }
});
