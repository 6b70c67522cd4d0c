import { spawn } from 'node:child_process';
import {
  type AmdhsaKernel,
  type ClangKernelMetadata,
  parseAmdhsaMetadata,
  parseKernelMetadata,
} from '../support/tools.js';

export interface ToolResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a tool without a shell, feeding `input` on stdin. */
export function runTool(cmd: string, args: readonly string[], input?: string): Promise<ToolResult> {
  return new Promise((resolve, reject) => {
    const p = spawn(cmd, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    p.stdout.on('data', (b: Buffer) => out.push(b));
    p.stderr.on('data', (b: Buffer) => err.push(b));
    p.on('error', reject);
    // A tool that reads its input from a file may exit before taking stdin: EPIPE there is not a failure
    // (its exit status and output say how it went).
    p.stdin.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code !== 'EPIPE') reject(e);
    });
    p.on('close', (code) =>
      resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') }),
    );
    p.stdin.end(input ?? '');
  });
}

export interface ClangFacts {
  /** `kernel_arg_*` metadata from `-target spir64 -emit-llvm -O0 -cl-kernel-arg-info`. */
  readonly spir: Map<string, ClangKernelMetadata>;
  /** The amdhsa metadata for gfx900 at -O0, code objects 4 and 5. */
  readonly amdhsa: Record<4 | 5, Map<string, AmdhsaKernel>>;
}

/**
 * Replaces the body of every defined function with `unreachable`, unless the module prints or
 * enqueues kernels (the backend passes that add hidden arguments for those read bodies). The
 * amdhsa metadata is made from signatures, attributes and module metadata, so it is the same;
 * instruction selection of large bodies is what makes `clang -O0 -S` slow on hashcat's kernels.
 */
export function stripBodies(ir: string): string {
  if (/@printf\(|__enqueue_kernel/.test(ir)) return ir;
  const lines = ir.split('\n');
  const out: string[] = [];
  let inBody = false;
  for (const line of lines) {
    if (inBody) {
      if (line === '}') {
        out.push('  unreachable', '}');
        inBody = false;
      }
      continue;
    }
    out.push(line);
    if (line.startsWith('define ') && line.endsWith('{')) inBody = true;
  }
  return out.join('\n');
}

/** What clang-16 reports for one file built with the host's flags, or why it refuses the file. */
export async function clangFacts(
  clang: string,
  llc: string,
  path: string,
  flags: readonly string[],
): Promise<ClangFacts | { refused: string }> {
  const spir = await runTool(clang, [
    ...flags,
    '-target',
    'spir64',
    '-emit-llvm',
    '-S',
    '-O0',
    '-cl-kernel-arg-info',
    '-o',
    '-',
    path,
  ]);
  if (spir.code !== 0)
    return { refused: spir.stderr.split('\n').find((l) => l.includes('error:')) ?? spir.stderr.slice(0, 200) };
  const amdIr = await runTool(clang, [
    ...flags,
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
    path,
  ]);
  if (amdIr.code !== 0)
    return {
      refused: `amdgcn: ${amdIr.stderr.split('\n').find((l) => l.includes('error:')) ?? amdIr.stderr.slice(0, 200)}`,
    };
  const ir = stripBodies(amdIr.stdout);
  const amdhsa = {} as Record<4 | 5, Map<string, AmdhsaKernel>>;
  for (const co of [4, 5] as const) {
    const r = await runTool(
      llc,
      ['-O0', '-mtriple=amdgcn-amd-amdhsa', '-mcpu=gfx900', `--amdhsa-code-object-version=${co}`, '-o', '-', '-'],
      ir,
    );
    if (r.code !== 0) throw new Error(`llc failed on ${path}: ${r.stderr.slice(0, 2000)}`);
    amdhsa[co] = parseAmdhsaMetadata(r.stdout);
  }
  return { spir: parseKernelMetadata(spir.stdout), amdhsa };
}
