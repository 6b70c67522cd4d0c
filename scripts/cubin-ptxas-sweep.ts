// The cubin reader against NVIDIA's ptxas over the fixtures and the real-world corpora: each file
// compiled by clang-16 for nvptx64-nvidia-nvcl (bodies emptied, as the cuda corpus sweep does: the
// .entry lists depend on signatures only), printed as PTX by llc-16, assembled by ptxas for each
// architecture asked (-c: relocatable, so calls to undefined builtins do not matter), and every
// kernel's EIATTR_KPARAM_INFO offsets and sizes (kernarg's cubin reader) compared with the plan
// kernarg reads from the PTX for that architecture (readPtx's sm: the parameter buffer's base by
// architecture, src/targets/cuda/param-base.ts), and the cubin's own sm (e_flags) with the one asked. Needs a CUDA
// toolkit's ptxas (PTXAS=..., default ptxas on PATH).
// Run: node --import tsx scripts/cubin-ptxas-sweep.ts [sm_90 sm_80 sm_100 ...]   (default sm_90 sm_80 sm_100)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CORPORA, type CorpusFile } from '../test/corpus/corpora.js';
import { stripBodies } from '../test/corpus/clang-facts.js';
import { readCubin } from '../src/readers/cubin.js';
import { readPtx } from '../src/readers/ptx.js';
import { isCudaSm } from '../src/targets/cuda/param-base.js';

const ptxas = process.env.PTXAS ?? 'ptxas';
const arches = process.argv.slice(2).length ? process.argv.slice(2) : ['sm_90', 'sm_80', 'sm_100'];
const smOf = (arch: string) => {
  const n = Number(arch.replace(/^sm_/, ''));
  if (!isCudaSm(n)) throw new Error(`${arch}: kernarg's cuda target has no parameter-buffer base for it`);
  return n;
};
const CLANG = '/usr/lib/llvm-16/bin/clang';
const LLC = '/usr/lib/llvm-16/bin/llc';
if (spawnSync(ptxas, ['--version']).status !== 0)
  throw new Error(`no ptxas (${ptxas}): install a CUDA toolkit or set PTXAS`);

const FIXTURES = join(import.meta.dirname, '..', 'test', 'fixtures');
const fixtureFiles: CorpusFile[] = readdirSync(FIXTURES)
  .filter((c) => !c.startsWith('diag-') && existsSync(join(FIXTURES, c, 'input.cl')))
  .map((c) => {
    const o = existsSync(join(FIXTURES, c, 'options.json'))
      ? (JSON.parse(readFileSync(join(FIXTURES, c, 'options.json'), 'utf8')) as {
          std?: string;
          includeDirs?: string[];
        })
      : {};
    return {
      path: join(FIXTURES, c, 'input.cl'),
      name: c,
      flags: [`-cl-std=${o.std ?? 'CL1.2'}`, ...(o.includeDirs ?? []).map((d) => `-I${join(FIXTURES, c, d)}`)],
    };
  });
const sets = [
  { name: 'fixtures', files: () => fixtureFiles },
  ...CORPORA.filter((c) => existsSync(join(import.meta.dirname, '..', '.corpus', 'root'))).map((c) => ({
    name: c.name,
    files: c.files,
  })),
];

const dir = mkdtempSync(join(tmpdir(), 'kernarg-cubin-sweep-'));
try {
  for (const set of sets) {
    const files = set.files();
    const started = Date.now();
    const counts = new Map<
      string,
      { kernels: number; equal: number; differ: string[]; ptxasRefused: Map<string, number> }
    >(arches.map((a) => [a, { kernels: 0, equal: 0, differ: [], ptxasRefused: new Map() }]));
    let compiled = 0;
    let refused = 0;
    for (const f of files) {
      const ir = spawnSync(
        CLANG,
        [
          '-x',
          'cl',
          '-Xclang',
          '-finclude-default-header',
          ...f.flags,
          '-target',
          'nvptx64-nvidia-nvcl',
          '-emit-llvm',
          '-S',
          '-O0',
          '-o',
          '-',
          f.path,
        ],
        { encoding: 'utf8', maxBuffer: 1 << 28 },
      );
      if (ir.status !== 0) {
        refused++;
        continue;
      }
      const ptx = spawnSync(LLC, ['-O0', '-mtriple=nvptx64-nvidia-nvcl', '-o', '-', '-'], {
        input: stripBodies(ir.stdout),
        encoding: 'utf8',
        maxBuffer: 1 << 28,
      });
      if (ptx.status !== 0) {
        refused++;
        continue;
      }
      const ptxBytes = new TextEncoder().encode(ptx.stdout);
      const sm90 = readPtx(ptxBytes, f.path).plan;
      if (!sm90 || sm90.kernels.length === 0) continue;
      compiled++;
      const ptxPath = join(dir, 'k.ptx');
      writeFileSync(ptxPath, ptx.stdout);
      for (const arch of arches) {
        const c = counts.get(arch)!;
        const plan = readPtx(ptxBytes, f.path, smOf(arch)).plan!;
        const cubinPath = join(dir, `k.${arch}.cubin`);
        const r = spawnSync(ptxas, [`-arch=${arch}`, '-c', ptxPath, '-o', cubinPath], { encoding: 'utf8' });
        if (r.status !== 0) {
          // ptxas's refusals (printf, calls to kernels) are no reading at all: counted apart, by reason.
          const why = (r.stderr.split('\n').find((l) => /error|fatal/.test(l)) ?? r.stderr)
            .replace(/^.*?(error|fatal)\s*:\s*/, '')
            .trim();
          c.ptxasRefused.set(why, (c.ptxasRefused.get(why) ?? 0) + sm90.kernels.length);
          continue;
        }
        const read = readCubin(new Uint8Array(readFileSync(cubinPath)));
        if (read.plan && read.plan.sm !== smOf(arch))
          c.differ.push(`${f.name}: the cubin's e_flags say sm_${read.plan.sm}, ptxas was asked for ${arch}`);
        for (const k of plan.kernels) {
          c.kernels++;
          const got = read.plan?.kernels.find((x) => x.name === k.name);
          const want = k.args.map((a) => `${a.offset}+${a.size}`).join(' ');
          const have = got
            ? got.args.map((a) => `${a.offset}+${a.size}`).join(' ')
            : `(${read.diagnostics.map((d) => d.message).join('; ') || 'kernel missing'})`;
          if (have === want) c.equal++;
          else c.differ.push(`${f.name} ${k.name}: cubin ${have} | PTX plan ${want}`);
        }
      }
    }
    console.log(
      `${set.name}: ${files.length} files, ${compiled} compiled to PTX with kernels, ${refused} refused by ` +
        `clang-16/llc-16 (${((Date.now() - started) / 1000).toFixed(0)} s)`,
    );
    for (const [arch, c] of counts) {
      const refusedKernels = [...c.ptxasRefused.values()].reduce((x, y) => x + y, 0);
      console.log(
        `  ${arch}: ${c.kernels} kernels read, ${c.equal} with the PTX plan's offsets and sizes, ${c.differ.length} ` +
          `differing; ${refusedKernels} kernels in files ptxas refuses`,
      );
      for (const [why, n] of c.ptxasRefused) console.log(`    ${n} kernels: ptxas: ${why}`);
      for (const d of c.differ.slice(0, 8)) console.log(`    DIFFERS ${d}`);
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
