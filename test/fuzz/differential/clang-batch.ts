// The clang-16 side of the opencl-c-clang target, batched: many generated programs (each with its
// own name prefix, so kernels never clash) go into one translation unit, compiled once for spir64
// (`-emit-llvm -S`) and once for amdgcn (`-c`, a code object). Kernels are matched to their program
// by prefix, so a disagreement names its program at once; a batch clang refuses is bisected to the
// program it refuses. Every disagreement is confirmed on its program alone before it is reported,
// so the kept input reproduces by itself.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AmdhsaPlan, OpenCLPlan } from '../../../src/abi/plan.js';
import { parseKernelMetadata } from '../../support/tools.js';
import { compareAmdhsaKernel, noteKernels } from './compare-amdhsa.js';
import { type Difference, compareOpenCLKernel, describe } from './compare-opencl.js';
import { kernelParams } from './llvm-types.js';

export type Std = 'CL1.2' | 'CL2.0' | 'CL3.0';

/** One generated program with kernarg's answers for it. */
export interface Program {
  readonly input: Uint8Array;
  /** Its names' prefix in a batch (unique among the programs checked together). */
  readonly prefix: string;
  /** The source for a prefix (names differ per batch position). */
  readonly render: (prefix: string) => string;
  readonly std: Std;
  readonly codeObject: 4 | 5;
  /** kernarg's plans of render(prefix) (lowered by the caller), or its first error when it refused. */
  readonly kernarg: (prefix: string) => { opencl?: OpenCLPlan; amdhsa?: AmdhsaPlan; refused?: string };
}

export interface Disagreement {
  readonly input: Uint8Array;
  readonly message: string;
}

/** What the oracle has done: programs and kernels compared, slots found equal, clang runs and their time. */
export interface OracleStats {
  programs: number;
  kernels: number;
  slots: number;
  disagreements: number;
  clangCalls: number;
  clangMs: number;
}

interface Compiled {
  readonly spir?: string;
  readonly object?: Uint8Array;
  readonly error?: string;
}

export class ClangBatchOracle {
  readonly stats: OracleStats = { programs: 0, kernels: 0, slots: 0, disagreements: 0, clangCalls: 0, clangMs: 0 };
  private readonly dir = mkdtempSync(join(tmpdir(), 'kernarg-fuzz-clang-'));

  constructor(
    private readonly clang: string,
    private readonly progress: () => void = () => {},
  ) {}

  dispose(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }

  private run(args: string[]): { ok: boolean; stderr: string } {
    const t0 = performance.now();
    const r = spawnSync(this.clang, args, { encoding: 'utf8', timeout: 120_000, maxBuffer: 256 << 20 });
    this.stats.clangCalls++;
    this.stats.clangMs += performance.now() - t0;
    this.progress();
    return { ok: r.status === 0, stderr: r.stderr ?? String(r.error) };
  }

  /** Both compilations of one source (spir64 IR, amdgcn code object), or clang's first error. */
  private compile(source: string, std: Std, codeObject: 4 | 5): Compiled {
    const src = join(this.dir, 'batch.cl');
    writeFileSync(src, source);
    const ll = join(this.dir, 'batch.ll');
    const obj = join(this.dir, 'batch.o');
    const common = [`-cl-std=${std}`, '-O0', '-cl-kernel-arg-info', '-fno-color-diagnostics'];
    const a = this.run([...common, '-target', 'spir64-unknown-unknown', '-emit-llvm', '-S', '-o', ll, src]);
    if (!a.ok) return { error: a.stderr };
    const b = this.run([
      ...common,
      '-target',
      'amdgcn-amd-amdhsa',
      '-mcpu=gfx900',
      '-nogpulib',
      `-mcode-object-version=${codeObject}`,
      '-c',
      '-o',
      obj,
      src,
    ]);
    if (!b.ok) return { error: b.stderr };
    return { spir: readFileSync(ll, 'utf8'), object: new Uint8Array(readFileSync(obj)) };
  }

  /** The differences of one program (its kernels are those named `${prefix}_…`), or a refusal by either side. */
  private differences(p: Program, prefix: string, c: Compiled): string[] {
    const ours = p.kernarg(prefix);
    if (!ours.opencl || !ours.amdhsa)
      return [`kernarg refuses a program clang-16 compiles (${p.std}): ${ours.refused ?? 'no plan'}`];
    const mine = (name: string) => name.startsWith(`${prefix}_`);
    const md = parseKernelMetadata(c.spir!);
    const params = kernelParams(c.spir!);
    const vecHints = vecTypeHints(c.spir!);
    const notes = noteKernels(c.object!);
    const out: Difference[] = [];
    const names = (xs: Iterable<string>) => [...xs].filter(mine).sort().join(' ');
    const spirNames = names(md.keys());
    if (names(ours.opencl.kernels.map((k) => k.name)) !== spirNames)
      out.push({
        kernel: prefix,
        arg: null,
        field: 'opencl kernels',
        kernarg: names(ours.opencl.kernels.map((k) => k.name)),
        clang: spirNames,
      });
    if (names(ours.amdhsa.kernels.map((k) => k.name)) !== names(notes.keys()))
      out.push({
        kernel: prefix,
        arg: null,
        field: 'amdhsa kernels',
        kernarg: names(ours.amdhsa.kernels.map((k) => k.name)),
        clang: names(notes.keys()),
      });
    for (const k of ours.opencl.kernels) {
      const m = md.get(k.name);
      const ps = params.get(k.name);
      if (!m || !ps) continue;
      this.stats.kernels++;
      const d = compareOpenCLKernel(k, m, ps, vecHints.get(k.name));
      out.push(...d.map((x) => ({ ...x, field: `opencl ${x.field}` })));
      this.stats.slots += k.args.length;
    }
    for (const k of ours.amdhsa.kernels) {
      const n = notes.get(k.name);
      if (!n) continue;
      const d = compareAmdhsaKernel(k, n);
      out.push(...d.map((x) => ({ ...x, field: `amdhsa ${x.field}` })));
      this.stats.slots += k.args.length;
    }
    return out.map(describe);
  }

  /** One program alone: its differences, or clang's refusal when kernarg accepted it. */
  private alone(p: Program): string[] {
    const source = p.render('f0');
    const c = this.compile(source, p.std, p.codeObject);
    if (c.error) {
      const ours = p.kernarg('f0');
      return ours.opencl || ours.amdhsa
        ? [`clang-16 refuses a program kernarg accepts (${p.std}): ${c.error.split('\n').slice(0, 4).join('\n')}`]
        : [];
    }
    return this.differences(p, 'f0', c);
  }

  private report(p: Program, diffs: string[]): Disagreement {
    this.stats.disagreements++;
    return {
      input: p.input,
      message: `${diffs.slice(0, 12).join('\n')}${diffs.length > 12 ? `\n… ${diffs.length - 12} more` : ''}\n--- source (${p.std}, code object ${p.codeObject}) ---\n${p.render('f0')}`,
    };
  }

  /** Checks programs that share a standard and code object in one translation unit (bisected when clang refuses it). */
  private group(ps: readonly Program[]): Disagreement[] {
    if (ps.length === 1) {
      this.stats.programs++;
      const d = this.alone(ps[0]);
      return d.length ? [this.report(ps[0], d)] : [];
    }
    const c = this.compile(ps.map((p) => p.render(p.prefix)).join('\n'), ps[0].std, ps[0].codeObject);
    if (c.error) {
      const half = ps.length >> 1;
      return [...this.group(ps.slice(0, half)), ...this.group(ps.slice(half))];
    }
    const out: Disagreement[] = [];
    ps.forEach((p) => {
      this.stats.programs++;
      if (this.differences(p, p.prefix, c).length === 0) return;
      // Confirmed alone (and described with the prefix the kept input replays with).
      const d = this.alone(p);
      if (d.length) out.push(this.report(p, d));
    });
    return out;
  }

  /** Checks every program: grouped by standard and code object, one clang run of each kind per group. */
  check(programs: readonly Program[]): Disagreement[] {
    const groups = new Map<string, Program[]>();
    for (const p of programs) {
      const key = `${p.std}/${p.codeObject}`;
      groups.set(key, [...(groups.get(key) ?? []), p]);
    }
    return [...groups.values()].flatMap((g) => this.group(g));
  }
}

/** clang's vec_type_hint node per kernel (`<4 x i32> undef, i32 0`). */
function vecTypeHints(ir: string): Map<string, string> {
  const nodes = new Map<string, string>();
  for (const m of ir.matchAll(/^!(\d+) = !\{(.*)\}$/gm)) nodes.set(m[1], m[2]);
  const out = new Map<string, string>();
  for (const m of ir.matchAll(/^define [^@]*spir_kernel void @"?([\w.$]+)"?\(.*!vec_type_hint !(\d+).*$/gm))
    out.set(m[1], nodes.get(m[2]) ?? '');
  return out;
}
