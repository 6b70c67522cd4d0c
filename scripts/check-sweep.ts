// The full sweep of `kernarg check`: every valid fixture and a set of generated programs, compiled
// by the real tools — clang-16/19/22 AMDGPU code objects 4/5/6 (-O0 and -O2), clang-22 PTX
// (nvptx64, nvptx) and OpenCL SPIR-V (spirv64) — and checked against their own source. Prints,
// per binary kind and corpus: files compiled, files that check clean (exit 0), files that differ
// (exit 3, with the first rows), and files kernarg refuses (exit 1). `npm test` runs a sample
// (test/oracle/check-tools.test.ts). Usage: tsx scripts/check-sweep.ts [generated programs, default 60] [kind
// substring]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCliWith } from '../src/cli/main.js';
import { readInput } from '../src/cli/read-input.js';
import { fixtureFiles } from '../test/support/fixtures.js';
import { STDS, programSpec, renderBatch, samples } from '../test/support/gen.js';
import { CLANG, CLANG19, CLANG22_AMDHSA, findTool } from '../test/support/tools.js';

interface Source {
  readonly path: string;
  readonly std: string;
  readonly clangArgs: readonly string[];
}

const scratch = mkdtempSync(join(tmpdir(), 'kernarg-check-sweep-'));
const generatedPrograms = Number(process.argv[2] ?? 60);
const fixtures: Source[] = fixtureFiles().map((f) => ({ path: f.path, std: f.std, clangArgs: f.clangArgs }));
const { values, seed } = samples(programSpec, generatedPrograms, 9100);
const generated: Source[] = [];
for (let b = 0; b < values.length; b += 10) {
  const path = join(scratch, `gen${b}.cl`);
  writeFileSync(path, renderBatch(values.slice(b, b + 10), b, 's'));
  generated.push({ path, std: STDS[(b / 10) % 3], clangArgs: [] });
}

function check(source: Source, binary: string, flags: readonly string[] = []): { code: number; out: string } {
  let out = '';
  const args = [
    'check',
    source.path,
    binary,
    `-cl-std=${source.std}`,
    ...source.clangArgs.map((a) => (a.startsWith('-I') ? `--include=${a.slice(2)}` : `--define=${a.slice(2)}`)),
    ...flags,
  ];
  const code = runCliWith(args, {
    stdout: (t) => (out += t),
    stderr: (t) => (out += t),
    readFile: (p) => {
      try {
        return readFileSync(p, 'utf8');
      } catch {
        return undefined;
      }
    },
    readInput: (p) => readInput(p),
    color: false,
  });
  return { code, out };
}

interface Kind {
  readonly name: string;
  readonly tool: string[];
  readonly args: (out: string) => string[];
  /**
   * Flags `check` needs beside the source's: clang's spirv64 triple predefines __SPIRV64__, not the spir64 triple's
   * __SPIR64__ the opencl target models.
   */
  readonly checkFlags?: readonly string[];
}

const amd = (co: number, opt: string) => (out: string) => [
  '-target',
  'amdgcn-amd-amdhsa',
  '-mcpu=gfx900',
  '-nogpulib',
  opt,
  '-cl-kernel-arg-info',
  `-mcode-object-version=${co}`,
  '-c',
  '-o',
  out,
];
const KINDS: Kind[] = [
  { name: 'clang-16 code object 4 -O0', tool: CLANG, args: amd(4, '-O0') },
  { name: 'clang-16 code object 5 -O0', tool: CLANG, args: amd(5, '-O0') },
  { name: 'clang-19 code object 5 -O0', tool: CLANG19, args: amd(5, '-O0') },
  { name: 'clang-22 code object 6 -O0', tool: CLANG22_AMDHSA, args: amd(6, '-O0') },
  { name: 'clang-22 code object 6 -O2', tool: CLANG22_AMDHSA, args: amd(6, '-O2') },
  {
    name: 'clang-22 PTX nvptx64-nvidia-nvcl',
    tool: CLANG22_AMDHSA,
    args: (out) => ['-target', 'nvptx64-nvidia-nvcl', '-S', '-o', out],
  },
  {
    name: 'clang-22 PTX nvptx-nvidia-nvcl',
    tool: CLANG22_AMDHSA,
    args: (out) => ['-target', 'nvptx-nvidia-nvcl', '-S', '-o', out],
  },
  {
    name: 'clang-22 SPIR-V spirv64',
    tool: CLANG22_AMDHSA,
    args: (out) => ['-target', 'spirv64', '-c', '-o', out],
    checkFlags: ['-U', '__SPIR__', '-U', '__SPIR64__', '-D', '__SPIRV__=1', '-D', '__SPIRV64__=1'],
  },
];

try {
  for (const kind of KINDS.filter((k) => k.name.includes(process.argv[3] ?? ''))) {
    const clang = findTool(kind.tool);
    if (!clang) throw new Error(`${kind.tool[0]} not found`);
    for (const [corpus, sources] of [
      ['fixtures', fixtures],
      [`generated (seed ${seed}, ${generatedPrograms} programs)`, generated],
    ] as const) {
      let compiled = 0,
        clean = 0,
        differ = 0,
        refused = 0;
      const shown: string[] = [];
      const started = performance.now();
      for (const s of sources) {
        const out = join(scratch, 'bin');
        try {
          execFileSync(clang, [`-cl-std=${s.std}`, ...s.clangArgs, ...kind.args(out), s.path], {
            stdio: ['ignore', 'pipe', 'pipe'],
          });
        } catch {
          continue; // clang refuses the source: no binary to check.
        }
        compiled++;
        const r = check(s, out, kind.checkFlags);
        if (r.code === 0) clean++;
        else if (r.code === 3) {
          differ++;
          shown.push(
            `${s.path}: ${r.out
              .split('\n')
              .filter((l) => /^\(?(breaking|compatible)/.test(l))
              .slice(0, 2)
              .join(' | ')}`,
          );
        } else {
          refused++;
          shown.push(`${s.path}: exit ${r.code}: ${r.out.split('\n')[0]}`);
        }
      }
      console.log(
        `${kind.name}, ${corpus}: ${compiled} files compiled, ${clean} check clean, ${differ} differ, ${refused} ` +
          `refused by kernarg (${((performance.now() - started) / 1000).toFixed(1)} s)`,
      );
      for (const d of shown.slice(0, 4)) console.log(`  ${d.slice(0, 300)}`);
    }
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
