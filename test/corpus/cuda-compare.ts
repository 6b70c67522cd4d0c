// One corpus file under --target cuda against clang's NVPTX backend: clang compiles the file to IR
// for nvptx64-nvidia-nvcl with the host's flags, the bodies are emptied (the .entry lists depend on
// signatures only; instruction selection of hashcat's bodies is what makes `clang -S` slow), llc
// prints the PTX, and each kernel's .entry block must equal kernarg's `--format ptx`.
import { runTool } from './clang-facts.js';
import { stripBodies } from './clang-facts.js';
import { kernarg } from './compare.js';
import { ptxEntries } from '../support/ptx-entries.js';

export interface CudaOutcome {
  /** clang refuses the file for NVPTX (its first error), or kernarg refuses it too (both refuse: agreement). */
  readonly refused?: string;
  /** Refused by both: kernarg's KA44xx reason. */
  readonly bothRefuse?: string;
  /** Per kernel: undefined when equal, else what differs. */
  readonly kernels: Map<string, string | undefined>;
}

const firstError = (text: string) => text.split('\n').find((l) => l.includes('error:')) ?? text.slice(0, 200);

export async function compareCudaFile(
  clang: string,
  llc: string,
  path: string,
  flags: readonly string[],
): Promise<CudaOutcome> {
  const ir = await runTool(clang, [
    ...flags,
    '-target',
    'nvptx64-nvidia-nvcl',
    '-emit-llvm',
    '-S',
    '-O0',
    '-o',
    '-',
    path,
  ]);
  const ours = kernarg(path, ['--target', 'cuda', '--format', 'ptx', ...flags]);
  const kernels = new Map<string, string | undefined>();
  if (ir.code !== 0) {
    if (ours.code === 1 && /\[KA44\d\d\]/.test(ours.stderr))
      return { kernels, bothRefuse: firstError(ours.stderr).replace(/^.*?error: /, '') };
    return { kernels, refused: firstError(ir.stderr).replace(/^.*?error: /, '') };
  }
  const ptx = await runTool(
    llc,
    ['-O0', '--asm-verbose=false', '-mtriple=nvptx64-nvidia-nvcl', '-o', '-', '-'],
    stripBodies(ir.stdout),
  );
  if (ptx.code !== 0) throw new Error(`llc failed on ${path}: ${ptx.stderr.slice(0, 2000)}`);
  const theirs = ptxEntries(ptx.stdout);
  if (ours.code !== 0) {
    for (const k of theirs.keys()) kernels.set(k, `kernarg exit ${ours.code}: ${firstError(ours.stderr)}`);
    return { kernels };
  }
  const mine = ptxEntries(ours.stdout);
  for (const [k, entry] of theirs)
    kernels.set(
      k,
      mine.get(k) === undefined
        ? 'kernel missing'
        : mine.get(k) === entry
          ? undefined
          : `kernarg:\n${mine.get(k)}\nclang:\n${entry}`,
    );
  for (const k of mine.keys()) if (!theirs.has(k)) kernels.set(k, 'a kernel clang does not have');
  return { kernels };
}
