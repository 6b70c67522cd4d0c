import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { CORPORA, CORPUS_ROOT } from '../corpus/corpora.js';
import { kernarg } from '../corpus/compare.js';
import { deliberateCases } from '../support/deliberate.js';
import { fixtureFiles } from '../support/fixtures.js';
import { ptxEntries } from '../support/ptx-entries.js';

/**
 * NVIDIA's OpenCL as a second oracle for --target cuda, offline: what NVIDIA's compiler (driver
 * 580, an H200) made of the fixtures and silx's kernels, recorded by scripts/gpu-nvidia-ptx.py on
 * the GPU machine — each kernel's `.entry` block from clGetProgramInfo(CL_PROGRAM_BINARIES), and
 * the CUDA driver's cuFuncGetParamInfo offsets and sizes for the modules it could load.
 */
interface Recorded {
  readonly device: string;
  readonly sources: readonly {
    readonly name: string;
    readonly refused?: string;
    readonly entries?: Record<string, string>;
    readonly paramInfo?: Record<string, [number, number][]>;
  }[];
}
const RECORDED = JSON.parse(readFileSync(join(import.meta.dirname, 'nvidia-opencl-ptx.json'), 'utf8')) as Recorded;

/**
 * NVIDIA's OpenCL passes images and samplers as texture, surface and sampler references, not as clang's opaque
 * pointers.
 */
const HANDLE_LINE = /^\t\.param \.(texref|surfref|samplerref) \w+,?$/;
const CLANG_HANDLE_LINE = /^\t\.param \.u64 \.ptr \.(global|const) \.align 1 \w+,?$/;

/**
 * Kernels the kit did not send (declared through a macro of clang's OpenCL header, which its preprocessing left out).
 */
const NOT_SENT = new Set(['fixture:decl-kernels exec_macro']);

/** The kernarg command line for a recorded source: the fixture's or the corpus host's flags. */
function invocation(name: string): { path: string; flags: string[] } | undefined {
  const [kind, file] = [name.slice(0, name.indexOf(':')), name.slice(name.indexOf(':') + 1)];
  if (kind === 'fixture') {
    const f = fixtureFiles().find((x) => x.name === file);
    return f && { path: f.path, flags: [`-cl-std=${f.std}`, ...f.clangArgs] };
  }
  const f = CORPORA.find((c) => c.name === kind)
    ?.files()
    .find((x) => x.name === file);
  return f && { path: f.path, flags: [...f.flags] };
}

test("cuda .entry lists and parameter offsets agree with NVIDIA's OpenCL and the CUDA driver (recorded on the GPU machine)", (t) => {
  if (!existsSync(CORPUS_ROOT)) {
    if (process.env.CI === 'true') throw new Error('the corpus is missing: run scripts/fetch-corpus.sh (.ci/run does)');
    t.skip('no corpus: run scripts/fetch-corpus.sh');
    return;
  }
  const deliberate = deliberateCases('cuda-nvidia');
  const seen = new Set<string>();
  const failures: string[] = [];
  let kernels = 0,
    equal = 0,
    handles = 0,
    offsets = 0;
  for (const src of RECORDED.sources) {
    const inv = invocation(src.name);
    assert.ok(inv, `recorded source ${src.name} is not in the repository`);
    const r = kernarg(inv.path, ['--target', 'cuda', '--format', 'ptx', ...inv.flags]);
    const caseName = src.name.replace(/[:/]/g, '_');
    if (src.refused !== undefined) {
      // NVIDIA refuses what clang accepts: a reviewed difference, or both refuse.
      if (deliberate.has(caseName)) seen.add(caseName);
      else if (r.code === 0)
        failures.push(`${src.name}: NVIDIA refuses (${src.refused.split('\n')[0]}) but kernarg plans it`);
      continue;
    }
    if (r.code !== 0 && deliberate.has(caseName)) {
      seen.add(caseName);
      continue;
    }
    if (r.code !== 0) {
      failures.push(`${src.name}: NVIDIA compiles it, kernarg exits ${r.code}: ${r.stderr.split('\n')[0]}`);
      continue;
    }
    const ours = ptxEntries(r.stdout);
    const json = JSON.parse(kernarg(inv.path, ['--target', 'cuda', '--format', 'json', ...inv.flags]).stdout) as {
      kernels: { name: string; args: { offset: number; size: number }[] }[];
    };
    // The kit preprocessed without clang's OpenCL header, so a kernel declared through its
    // __kernel_exec macro was not sent; every kernel NVIDIA compiled must be one of kernarg's.
    for (const k of ours.keys())
      if (!(k in src.entries!) && !NOT_SENT.has(`${src.name} ${k}`))
        failures.push(`${src.name}: NVIDIA has no kernel ${k}`);
    for (const k of Object.keys(src.entries!))
      if (!ours.has(k)) failures.push(`${src.name}: kernarg has no kernel ${k}`);
    for (const [kernel, theirs] of Object.entries(src.entries!)) {
      if (!ours.has(kernel)) continue;
      kernels++;
      const a = ours.get(kernel)!.split('\n');
      const b = theirs.split('\n');
      let same = a.length === b.length;
      let usedHandles = false;
      for (let i = 0; same && i < a.length; i++) {
        if (a[i] === b[i]) continue;
        if (HANDLE_LINE.test(b[i]) && CLANG_HANDLE_LINE.test(a[i])) usedHandles = true;
        else same = false;
      }
      if (!same) failures.push(`${src.name} ${kernel}:\nkernarg:\n${a.join('\n')}\nNVIDIA:\n${b.join('\n')}`);
      else if (usedHandles) {
        handles++;
        if (deliberate.has('images-as-texref')) seen.add('images-as-texref');
        else
          failures.push(
            `${src.name} ${kernel}: NVIDIA passes images or samplers as references; review it in ` +
              `test/deliberate/cuda-nvidia-images-as-texref.md`,
          );
      } else equal++;
      const info = src.paramInfo?.[kernel];
      if (info) {
        const slots = json.kernels.find((k) => k.name === kernel)!.args.map((s) => [s.offset, s.size]);
        if (JSON.stringify(slots) === JSON.stringify(info)) offsets++;
        else
          failures.push(
            `${src.name} ${kernel}: cuFuncGetParamInfo ${JSON.stringify(info)}, kernarg ${JSON.stringify(slots)}`,
          );
      }
    }
  }
  for (const d of deliberate)
    if (!seen.has(d))
      failures.push(`test/deliberate/cuda-nvidia-${d}.md names no source NVIDIA and kernarg disagree on`);
  t.diagnostic(
    `${RECORDED.device}: ${RECORDED.sources.length} sources, ${kernels} kernels: ${equal} .entry blocks equal, ${handles} equal but for NVIDIA's texref/surfref/samplerref image and sampler parameters; ${offsets} kernels' offsets and sizes equal cuFuncGetParamInfo`,
  );
  assert.deepEqual(failures, []);
  assert.ok(equal + handles >= 40, `only ${equal + handles} kernels compared`);
});
