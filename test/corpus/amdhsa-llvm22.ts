// The real-world corpora against clang-22 on amdhsa (`--llvm 22`, its default code object 6):
// shared by the sampled test and the full sweep script.
import { parseAmdhsaMetadata } from '../support/tools.js';
import { runTool, stripBodies } from './clang-facts.js';
import { kernarg } from './compare.js';
import type { CorpusFile } from './corpora.js';

export interface Llvm22Outcome {
  /**
   * Per kernel clang-22 reports: undefined when kernarg's slots, segment size and alignment equal clang's, else what
   * differs.
   */
  readonly kernels: Map<string, string | undefined>;
  /** Why clang-22 refuses the file with the host's flags (the file is then not compared). */
  readonly refused?: string;
}

const firstError = (stderr: string) => stderr.split('\n').find((l) => l.includes('error:')) ?? stderr.slice(0, 300);

/**
 * One corpus file: clang-22's amdgcn module at -O0 with bodies replaced by `unreachable` (as the
 * clang-16 corpus test does: the metadata comes from signatures, and instruction selection of
 * hashcat's bodies is what is slow) through llc-22, against `kernarg lower --target amdhsa` with
 * no --llvm or --code-object (22 and 6, clang-22's default).
 */
export async function compareLlvm22(clang: string, llc: string, file: CorpusFile): Promise<Llvm22Outcome> {
  const ir = await runTool(clang, [
    ...file.flags,
    '-target',
    'amdgcn-amd-amdhsa',
    '-mcpu=gfx900',
    '-nogpulib',
    '-emit-llvm',
    '-S',
    '-O0',
    '-cl-kernel-arg-info',
    '-o',
    '-',
    file.path,
  ]);
  if (ir.code !== 0) return { kernels: new Map(), refused: firstError(ir.stderr) };
  const asm = await runTool(
    llc,
    ['-O0', '-mtriple=amdgcn-amd-amdhsa', '-mcpu=gfx900', '-o', '-', '-'],
    stripBodies(ir.stdout),
  );
  if (asm.code !== 0) throw new Error(`llc-22 failed on ${file.path}: ${asm.stderr.slice(0, 2000)}`);
  if (!/\.amdhsa_code_object_version 6/.test(asm.stdout))
    throw new Error(`clang-22 did not write code object 6 for ${file.path}`);
  const theirs = parseAmdhsaMetadata(asm.stdout);
  const kernels = new Map<string, string | undefined>();
  const r = kernarg(file.path, ['--target', 'amdhsa', '--format', 'json', ...file.flags]);
  if (r.code !== 0) {
    for (const n of theirs.keys()) kernels.set(n, `kernarg exit ${r.code}: ${firstError(r.stderr)}`);
    return { kernels };
  }
  const plan = JSON.parse(r.stdout) as {
    codeObject: number;
    llvm: number;
    kernels: {
      name: string;
      args: Record<string, unknown>[];
      kernargSegmentSize: number;
      kernargSegmentAlign: number;
    }[];
  };
  const ours = new Map(plan.kernels.map((k) => [k.name, k]));
  for (const n of ours.keys()) if (!theirs.has(n)) kernels.set(n, 'kernel clang-22 does not have');
  for (const [name, hsa] of theirs) {
    const k = ours.get(name);
    if (!k) {
      kernels.set(name, 'kernel missing');
      continue;
    }
    const slots = k.args
      .map((a) => `${a.offset}:${a.size}:${a.valueKind}${a.param === null ? '' : ':' + a.name}`)
      .join(' ');
    const want = hsa.args
      .map(
        (a) =>
          `${a['.offset']}:${a['.size']}:${a['.value_kind']}${a['.value_kind']!.startsWith('hidden') ? '' : ':' + a['.name']}`,
      )
      .join(' ');
    const bad: string[] = [];
    if (plan.llvm !== 22 || plan.codeObject !== 6)
      bad.push(`default llvm ${plan.llvm} code object ${plan.codeObject}, clang-22's 22 and 6`);
    if (slots !== want) bad.push(`slots: kernarg ${slots}, clang ${want}`);
    if (String(k.kernargSegmentSize) !== hsa.props['.kernarg_segment_size'])
      bad.push(`segment size: kernarg ${k.kernargSegmentSize}, clang ${hsa.props['.kernarg_segment_size']}`);
    if (String(k.kernargSegmentAlign) !== hsa.props['.kernarg_segment_align'])
      bad.push(`segment align: kernarg ${k.kernargSegmentAlign}, clang ${hsa.props['.kernarg_segment_align']}`);
    kernels.set(name, bad.length ? bad.join('; ') : undefined);
  }
  return { kernels };
}
