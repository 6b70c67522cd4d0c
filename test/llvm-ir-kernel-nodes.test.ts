// LLVM IR's legacy `!opencl.kernels` nodes are numbered without their bodies (src/emit/llvm-ir-metadata.ts): kept as
// runs of numbers, each kernel's name read back at the module's end, with no map of names where the module is named
// once (`markNamedOnce`: the OpenCL C frontend's). The text must be what a map of names and a body per node make: the
// same whole and streamed, with the memo on and off, for a module marked named once and for the same module unmarked
// (whose names go through the map), on files that mix shapes, helpers between kernels (runs broken) and attributes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { type LowerOptions, lower } from '../src/lower.js';
import { targetNamed } from '../src/targets/index.js';
import { DiagnosticBag } from '../src/diagnostics/diagnostic.js';
import { kernelSeq } from '../src/abi/stream-plan.js';
import { withoutShapeMemo } from '../src/abi/kernel-shape-memo.js';
import { type KernelModule, isNamedOnce } from '../src/model/kernel-module.js';
import { compileOpenCL, memoryHost } from '../src/frontend/opencl-c/index.js';
import { SourceFile } from '../src/diagnostics/source.js';
import { SPIR } from '../src/layout/data-layout.js';
import { emitLlvmIr } from '../src/emit/llvm-ir.js';
import { TRIPLE_INFO, llvmKernelPlan } from '../src/abi/llvm-kernel.js';
import { metadataTuples } from '../src/emit/llvm-ir-metadata.js';
import { llvmString } from '../src/emit/llvm-ir-spelling.js';
import { kernelsOf } from '../src/model/kernel-module.js';

const host = { readFile: () => undefined };
const seed = process.env.KERNARG_FC_SEED ? Number(process.env.KERNARG_FC_SEED) : 1234;

const PRELUDE = `typedef struct { float4 p; int id; short tag; } Item;
float helper(float x) { return x; }
`;

/** What follows `kernel void <name>`; `@` is where a helper's name goes. */
const SHAPES = [
  '(global float *a, int n, float x) { }',
  '(global float *a, Item it, constant Item *items) { }',
  '(read_only image2d_t img, sampler_t s, global float4 *o) { }',
  '(global int *a, uint m) { }',
  '(global float *a) { a[0] = @(a[1]); }',
] as const;

interface Spec {
  readonly shape: number;
  readonly attribute: boolean;
  /** A helper function declared before the kernel: no kernel node, so the nodes' run breaks. */
  readonly helperBefore: boolean;
}

function source(specs: readonly Spec[]): string {
  let text = PRELUDE;
  specs.forEach((s, i) => {
    if (s.helperBefore) text += `float h${i}(float x) { return x; }\n`;
    const attribute = s.attribute ? '__attribute__((reqd_work_group_size(4, 1, 1))) ' : '';
    text += `${attribute}kernel void k${i}${SHAPES[s.shape].replace('@', s.helperBefore ? `h${i}` : 'helper')}\n`;
  });
  return text;
}

const CASES: readonly LowerOptions[] = [
  { target: 'r600', format: 'llvm-ir' },
  { target: 'llvm', format: 'llvm-ir', llvm: { metadata: 'legacy' } },
  { target: 'llvm', format: 'llvm-ir', llvm: { metadata: 'legacy', kernelArgInfo: true, triple: 'amdgcn-amd-amdhsa' } },
  { target: 'llvm', format: 'llvm-ir', llvm: { metadata: 'legacy', kernelStubs: true } },
  { target: 'llvm', format: 'llvm-ir' },
];

/**
 * What a module's legacy nodes must say, read off its text with no numbering of the writer's: `!opencl.kernels` names
 * each kernel in order, by a node `!{ptr @<kernel>, …}` whose references are the kernel's own `kernel_arg_*` tuples
 * (made here from its plan), and no two nodes are equal.
 */
function checkLegacyNodes(text: string, module: KernelModule, options: LowerOptions, where: string): void {
  const bodies = new Map<string, string>();
  for (const m of text.matchAll(/^!(\d+) = (.*)$/gm)) bodies.set(m[1], m[2]);
  assert.equal(new Set(bodies.values()).size, bodies.size, `two nodes alike: ${where}`);
  const list = /^!opencl\.kernels = !\{(.*)\}$/m.exec(text)![1].split(', ');
  const kernels = kernelsOf(module);
  assert.equal(list.length, kernels.length, where);
  const r600 = options.target === 'r600';
  const triple = r600 ? 'r600' : (options.llvm?.triple ?? 'spir64-unknown-unknown');
  kernels.forEach((k, i) => {
    const node = bodies.get(list[i].slice(1))!;
    const [head, ...refs] = node.slice(2, -1).split(', ');
    assert.equal(head, `ptr @${k.name}`, `kernel ${i}: ${where}`);
    const plan = llvmKernelPlan(k, TRIPLE_INFO[triple].layout);
    const tuples = metadataTuples(plan, { metadata: 'legacy', r600Lowered: r600 });
    const want = tuples.map((t) => `!{${[`!${llvmString(t.key)}`, ...t.items].join(', ')}}`);
    assert.deepEqual(
      refs.map((r) => bodies.get(r.slice(1))),
      want,
      `kernel ${k.name}'s tuples: ${where}`,
    );
  });
}

/** The text for `module` rendered whole and streamed by the target's own records, as `lower` does. */
function rendered(module: KernelModule, options: LowerOptions): { whole: string; streamed: string } {
  const target = targetNamed(String(options.target))!;
  const lowered = target.lower(module, options, new DiagnosticBag())!;
  const whole = lowered.render('llvm-ir', { module, options }) as string;
  const kw = target.kernelwise!.lower(module, options, new DiagnosticBag())!;
  const plan = { ...kw.head, kernels: kernelSeq(kw.count, () => kw.kernels(new DiagnosticBag())) };
  const streamed = [...kw.pieces(plan, 'llvm-ir', { module, options })].join('');
  return { whole, streamed };
}

test('the OpenCL C frontend names each function once, and lower marks its modules so', () => {
  const text = `kernel void k(global int *a);
void f(int x);
void f(int x) { }
__attribute__((overloadable)) void g(int x);
__attribute__((overloadable)) void g(float x);
kernel void k(global int *a) { f(1); }
kernel void j(int n) { }
`;
  const r = lower('n.cl', text, host, { target: 'llvm', format: 'llvm-ir' });
  assert.deepEqual(r.diagnostics, []);
  const names = r.module!.functions.map((f) => f.name);
  assert.deepEqual(names, [...new Set(names)]);
  assert.ok(isNamedOnce(r.module!));
  assert.ok(!isNamedOnce({ ...r.module! }));
});

test('legacy kernel nodes: the same text named once or not, whole or streamed, memo on or off', () => {
  const spec = fc.record({
    shape: fc.nat(SHAPES.length - 1),
    attribute: fc.boolean(),
    helperBefore: fc.boolean(),
  });
  // Mostly runs of one shape (the memo's shared slot lists), now and then something else.
  const specs = fc.array(
    fc.tuple(spec, fc.integer({ min: 1, max: 6 })).map(([s, n]) =>
      // A run's helpers come between kernels of its shape, every other one.
      Array.from({ length: n }, (_, i) => ({
        ...s,
        attribute: s.attribute && i === 0,
        helperBefore: s.helperBefore && i % 2 === 1,
      })),
    ),
    { minLength: 1, maxLength: 8 },
  );
  fc.assert(
    fc.property(specs, fc.array(spec, { maxLength: 4 }), (runs, extra) => {
      const text = source([...runs.flat(), ...extra]);
      for (const options of CASES) {
        const where = `${JSON.stringify(options)}\n${text}`;
        const whole = lower('m.cl', text, host, options);
        assert.deepEqual(whole.diagnostics, [], where);
        const expected = whole.output!;
        if (options.target === 'r600' || options.llvm?.metadata === 'legacy')
          checkLegacyNodes(expected, whole.module!, options, where);
        const streamed = lower('m.cl', text, host, { ...options, chunked: true, streamed: true });
        assert.equal([...streamed.pieces!].join(''), expected, `streamed: ${where}`);
        assert.equal(
          withoutShapeMemo(() => lower('m.cl', text, host, options).output),
          expected,
          `no memo: ${where}`,
        );
        // The same module unmarked: its kernels' names go through the map.
        const unmarked = rendered({ ...whole.module! }, options);
        assert.equal(unmarked.whole, expected, `unmarked, whole: ${where}`);
        assert.equal(unmarked.streamed, expected, `unmarked, streamed: ${where}`);
      }
    }),
    { seed, numRuns: 60 },
  );
});

test('a module built with one kernel listed twice: its node is found again, as a body met before', () => {
  const fe = compileOpenCL(
    new SourceFile('d.cl', 'kernel void k(global int *a) { }\nkernel void j(int n) { }\n'),
    memoryHost({}),
    { layout: SPIR },
  );
  const [k, j] = fe.module!.functions;
  const module = { ...fe.module!, functions: [k, j, k, j, k] };
  const plans = module.functions.map((f) => llvmKernelPlan(f, SPIR));
  const text = emitLlvmIr(module, plans, { triple: 'r600', metadata: 'legacy', r600Lowered: true });
  const nodes = text.slice(text.indexOf('!opencl.kernels'));
  // What the writer made before kernels' nodes were kept as numbers (a body per node, the bodies in a map).
  assert.equal(
    nodes,
    `!opencl.kernels = !{!5, !9, !5, !9, !5}
!opencl.ocl.version = !{!10}
!0 = !{!"kernel_arg_addr_space", i32 1}
!1 = !{!"kernel_arg_access_qual", !"none"}
!2 = !{!"kernel_arg_type", !"int*"}
!3 = !{!"kernel_arg_base_type", !"int*"}
!4 = !{!"kernel_arg_type_qual", !""}
!5 = !{ptr @k, !0, !1, !2, !3, !4}
!6 = !{!"kernel_arg_addr_space", i32 0}
!7 = !{!"kernel_arg_type", !"int"}
!8 = !{!"kernel_arg_base_type", !"int"}
!9 = !{ptr @j, !6, !1, !7, !8, !4}
!10 = !{i32 1, i32 2}
`,
  );
});
