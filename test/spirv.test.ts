// tinytc → SPIR-V: every module spirv-val accepts for Vulkan 1.2, its text is spirv-dis's, and its
// interface — read back by kernarg's own reader and by spirv-cross — is the vulkan plan's.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import fc from 'fast-check';
import type { VulkanTargetOptions } from '../src/targets/vulkan/lower.js';
import { lower } from '../src/lower.js';
import { chainSpec, renderChain } from './support/gen-tinytc-bodies.js';
import { irFunction, renderIr } from './support/gen-tinytc.js';
import {
  SPIRV_CROSS,
  SPIRV_DIS,
  SPIRV_VAL,
  compileSpirv,
  ownReaderMatches,
  tryCompileSpirv,
  spirvCrossMatches,
  spirvDisMatches,
  spirvVal,
} from './support/spirv-check.js';
import { requireTool } from './support/tools.js';

/** Every POD placement and the clspv options that move bindings and sets. */
const VARIANTS: { name: string; vulkan: VulkanTargetOptions; floatAtomicAdd?: boolean }[] = [
  { name: 'ssbo', vulkan: {} },
  { name: 'pod-ubo', vulkan: { podUbo: true } },
  { name: 'pod-pushconstant', vulkan: { podPushConstant: true } },
  { name: 'pod-args=auto', vulkan: { podArgs: 'auto' } },
  { name: 'cluster-pod-kernel-args=0', vulkan: { clusterPodKernelArgs: false } },
  { name: 'distinct-kernel-descriptor-sets', vulkan: { distinctKernelDescriptorSets: true } },
  { name: 'binding-scheme=by-position', vulkan: { bindingScheme: 'by-position' } },
  { name: 'float-atomic-add', vulkan: {}, floatAtomicAdd: true },
  { name: 'physical-storage-buffers', vulkan: { physicalStorageBuffers: true, arch: 'spir64' } },
  { name: 'physical-storage-buffers+pod-ubo', vulkan: { physicalStorageBuffers: true, arch: 'spir64', podUbo: true } },
];

const FIXTURES = ['tinytc-kernels', 'tinytc-seed', 'tinytc-spirv'];

for (const fixture of FIXTURES) {
  test(`SPIR-V of ${fixture}: spirv-val, spirv-dis, own reader and spirv-cross agree with the plan`, (t) => {
    const val = requireTool(t, SPIRV_VAL);
    const dis = requireTool(t, SPIRV_DIS);
    const cross = requireTool(t, SPIRV_CROSS, ['--help']);
    if (!val || !dis || !cross) return;
    const ir = readFileSync(new URL(`./fixtures/${fixture}/input.ir`, import.meta.url), 'utf8');
    for (const v of VARIANTS) {
      // One POD block in push constants per kernel must fit; clspv refuses unclustered push constants.
      const c = compileSpirv(ir, v.vulkan, v.floatAtomicAdd);
      const what = `${fixture} (${v.name})`;
      spirvVal(val, c.words, what);
      spirvDisMatches(dis, c.words, what);
      ownReaderMatches(c, what);
      spirvCrossMatches(cross, c, what);
    }
  });
}

const SEED = Number(process.env.KERNARG_FC_SEED ?? 20261123);
const RUNS = Number(process.env.KERNARG_FC_RUNS ?? 30);

test('SPIR-V of generated chained programs: valid for Vulkan 1.2, interface as planned, text as spirv-dis', (t) => {
  const val = requireTool(t, SPIRV_VAL);
  const dis = requireTool(t, SPIRV_DIS);
  const cross = requireTool(t, SPIRV_CROSS, ['--help']);
  if (!val || !dis || !cross) return;
  let n = 0;
  fc.assert(
    fc.property(chainSpec, fc.constantFrom(...VARIANTS), (spec, v) => {
      const { ir } = renderChain(spec);
      const c = tryCompileSpirv(ir, v.vulkan, v.floatAtomicAdd);
      // Push constants hold 128 bytes: the plan refuses bigger POD blocks (tested in vulkan.test.ts).
      fc.pre(c !== undefined);
      const what = `generated program (${v.name}):\n${ir}`;
      spirvVal(val, c.words, what);
      ownReaderMatches(c, what);
      if (n++ % 3 === 0) {
        spirvCrossMatches(cross, c, what);
        spirvDisMatches(dis, c.words, what);
      }
    }),
    { numRuns: RUNS, seed: SEED, endOnFailure: true },
  );
});

test('SPIR-V of generated signatures (scalars, memrefs, groups of every type): valid, interface as planned', (t) => {
  const val = requireTool(t, SPIRV_VAL);
  const cross = requireTool(t, SPIRV_CROSS, ['--help']);
  if (!val || !cross) return;
  fc.assert(
    fc.property(
      fc.array(irFunction, { minLength: 1, maxLength: 3 }),
      fc.constantFrom(...VARIANTS.filter((v) => !v.vulkan.podPushConstant)),
      (fs, v) => {
        const ir = fs.map((f, i) => renderIr(f, `k${i}`)).join('');
        // The generator may pick a parameter name OpenCL C reserves (`%if`): the front end refuses those.
        fc.pre(
          lower('k.ir', ir, { readFile: () => undefined }, { target: 'vulkan', format: 'json', vulkan: v.vulkan })
            .output !== undefined,
        );
        const c = compileSpirv(ir, v.vulkan);
        const what = `generated signatures (${v.name}):\n${ir}`;
        spirvVal(val, c.words, what);
        ownReaderMatches(c, what);
        spirvCrossMatches(cross, c, what);
      },
    ),
    { numRuns: RUNS, seed: SEED, endOnFailure: true },
  );
});

test('--format spirv needs -o and never writes binary to stdout; spirv-asm is text', async () => {
  const { runCliWith } = await import('../src/cli/main.js');
  const ir = 'func @k(%a: memref<f32x4>) { %x = load %a[0] : memref<f32x4>\n store %x, %a[1] : memref<f32x4> }\n';
  const files: Record<string, string> = { 'k.ir': ir };
  const written = new Map<string, string | Uint8Array>();
  const io = (out: { s: string; e: string }) => ({
    stdout: (x: string) => (out.s += x),
    stderr: (x: string) => (out.e += x),
    readFile: (p: string) => files[p],
    writeFile: (p: string, d: string | Uint8Array) => void written.set(p, d),
    color: false,
  });
  const a = { s: '', e: '' };
  assert.equal(runCliWith(['lower', 'k.ir', '--target', 'vulkan', '--format', 'spirv'], io(a)), 2);
  assert.equal(a.s, '');
  assert.match(a.e, /-o <file>/);
  const b = { s: '', e: '' };
  assert.equal(runCliWith(['lower', 'k.ir', '--target', 'vulkan', '--format', 'spirv', '-o', 'k.spv'], io(b)), 0);
  const bytes = written.get('k.spv') as Uint8Array;
  assert.deepEqual([...bytes.subarray(0, 4)], [0x03, 0x02, 0x23, 0x07]);
  const c = { s: '', e: '' };
  assert.equal(runCliWith(['lower', 'k.ir', '--target', 'vulkan', '--format', 'spirv-asm'], io(c)), 0);
  assert.match(c.s, /^; SPIR-V\n; Version: 1\.3\n/);
  assert.match(c.s, /OpEntryPoint GLCompute %k "k"/);
  const d = { s: '', e: '' };
  assert.equal(runCliWith(['lower', 'k.cl', '--target', 'vulkan', '--format', 'spirv', '-o', 'k.spv'], io(d)), 2);
});
