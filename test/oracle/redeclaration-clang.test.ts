// Declarations of the same function again and again (prototypes, definitions, kernels, a kernel's attributes, and
// the same name taken by a variable or an enumerator first), judged by clang-16 -fsyntax-only: kernarg refuses a
// program exactly when clang does. Overloads are left out: clang-16 takes a set of functions of one name when one of
// them is `overloadable` (kernels too, with mangled names), where kernarg's module holds one function per name and
// takes only non-kernels that are each declared `overloadable`. Where both take it, kernarg's module lists each function once, in order of first
// declaration, defined when some declaration had a body, a kernel when some declaration said so, and with the
// reqd_work_group_size a declaration gave. The checker keeps what it knows of a name in one table entry (issue 30):
// these cases cover every path through it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { SourceFile } from '../../src/diagnostics/source.js';
import { compileOpenCL, memoryHost } from '../../src/frontend/opencl-c/index.js';
import { SPIR64 } from '../../src/layout/data-layout.js';
import { samples } from '../support/gen.js';
import { clangVerdicts } from '../support/near-miss.js';
import { CLANG, requireTool } from '../support/tools.js';

const NAMES = ['f0', 'f1', 'f2'] as const;
const PARAMS = ['void', 'int a', 'float a', 'global int *a', 'int a, int b'] as const;

type Item =
  | {
      readonly kind: 'function';
      readonly name: (typeof NAMES)[number];
      readonly kernel: boolean;
      readonly int: boolean;
      readonly params: (typeof PARAMS)[number];
      readonly body: boolean;
      readonly attr: 'none' | 'reqd';
    }
  | { readonly kind: 'variable' | 'enumerator'; readonly name: (typeof NAMES)[number] };

const item: fc.Arbitrary<Item> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('function' as const),
      name: fc.constantFrom(...NAMES),
      kernel: fc.boolean(),
      int: fc.boolean(),
      params: fc.constantFrom(...PARAMS),
      body: fc.boolean(),
      attr: fc.constantFrom('none' as const, 'reqd' as const),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constantFrom('variable' as const, 'enumerator' as const),
      name: fc.constantFrom(...NAMES),
    }),
  },
);

function render(items: readonly Item[]): string {
  return (
    items
      .map((it, i) => {
        if (it.kind !== 'function')
          return it.kind === 'variable' ? `constant int ${it.name} = 1;` : `enum E${i} { ${it.name} };`;
        const attr = it.attr === 'reqd' ? '__attribute__((reqd_work_group_size(2, 1, 1))) ' : '';
        const head = `${attr}${it.kernel ? 'kernel ' : ''}${it.int ? 'int' : 'void'} ${it.name}(${it.params})`;
        return it.body ? `${head} { ${it.int ? 'return 0; ' : ''}}` : `${head};`;
      })
      .join('\n') + '\nkernel void last(global int *p) {}\n'
  );
}

/** What kernarg's module should say of each function of an accepted program without overloads. */
function expected(items: readonly Item[]): { name: string; isKernel: boolean; defined: boolean; reqd: boolean }[] {
  const out = new Map<string, { name: string; isKernel: boolean; defined: boolean; reqd: boolean }>();
  for (const it of items) {
    if (it.kind !== 'function') continue;
    const f = out.get(it.name) ?? { name: it.name, isKernel: false, defined: false, reqd: false };
    f.isKernel ||= it.kernel;
    f.defined ||= it.body;
    f.reqd ||= it.attr === 'reqd';
    out.set(it.name, f);
  }
  return [...out.values(), { name: 'last', isKernel: true, defined: true, reqd: false }];
}

test('redeclared functions: kernarg refuses exactly what clang-16 refuses, and merges the declarations it takes', (t) => {
  const clang = requireTool(t, CLANG);
  if (!clang) return;
  const { values, seed } = samples(fc.array(item, { minLength: 1, maxLength: 6 }), 120, 30610);
  const sources = values.map(render);
  const theirs = clangVerdicts(clang, sources, 'CL1.2');
  const wrong: string[] = [];
  let accepted = 0;
  sources.forEach((source, i) => {
    const r = compileOpenCL(new SourceFile('redeclared.cl', source), memoryHost({}), { std: 'CL1.2', layout: SPIR64 });
    const first = r.diagnostics.items.find((d) => d.severity === 'error');
    if (r.diagnostics.hasErrors !== theirs[i].error) {
      wrong.push(`kernarg ${first ? first.message : 'no error'}; clang ${theirs[i].first ?? 'no error'}\n${source}`);
      return;
    }
    if (!r.module) return;
    accepted++;
    const got = r.module.functions.map((f) => ({
      name: f.name,
      isKernel: f.isKernel,
      defined: f.defined,
      reqd: f.attributes.reqdWorkGroupSize !== undefined,
    }));
    assert.deepEqual(got, expected(values[i]), source);
  });
  assert.deepEqual(wrong, [], `seed ${seed}`);
  // The sample must reach both sides of the question.
  assert.ok(accepted >= 10 && accepted <= sources.length - 10, `seed ${seed}: ${accepted} of ${sources.length} taken`);
});
