import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';

const cache = new Map<string, string | null>();

/** Finds a reference tool; under CI=true a missing tool fails the test instead of skipping it. */
export function findTool(names: string[]): string | null {
  const key = names.join('|');
  if (cache.has(key)) return cache.get(key)!;
  let found: string | null = null;
  for (const n of names) {
    const r = spawnSync(n, ['--version'], { encoding: 'utf8' });
    if (r.status === 0) {
      found = n;
      break;
    }
  }
  cache.set(key, found);
  return found;
}

export function requireTool(t: TestContext, names: string[]): string | null {
  const tool = findTool(names);
  if (tool) return tool;
  const msg = `reference tool not found: ${names.join(' or ')}`;
  if (process.env.CI === 'true') throw new Error(`${msg} (CI=true: install it; .ci/run does)`);
  t.skip(msg);
  return null;
}

export const CLANG = ['clang-16', '/usr/lib/llvm-16/bin/clang'];

/** Runs clang on a source text; returns stdout, or throws with stderr. */
export function runClang(clang: string, source: string, args: string[], path?: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'kernarg-clang-'));
  try {
    const file = path ?? join(dir, 'input.cl');
    if (!path) writeFileSync(file, source);
    return execFileSync(clang, [...args, '-o', '-', file], { encoding: 'utf8', maxBuffer: 256 << 20, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) {
    const err = e as { stderr?: string; message: string };
    throw new Error(`clang failed: ${err.stderr ?? err.message}\n--- source ---\n${source}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface ClangKernelMetadata {
  name: string;
  addrSpace: number[];
  accessQual: string[];
  type: string[];
  baseType: string[];
  typeQual: string[];
  argName: string[];
  reqdWorkGroupSize?: number[];
  workGroupSizeHint?: number[];
  vecTypeHint?: string;
  intelReqdSubGroupSize?: number;
}

/** Parses clang's `-emit-llvm -S` output for kernel functions and their kernel_arg_* metadata. */
export function parseKernelMetadata(ir: string): Map<string, ClangKernelMetadata> {
  const nodes = new Map<string, string>();
  for (const m of ir.matchAll(/^!(\d+) = (?:distinct )?!\{(.*)\}$/gm)) nodes.set(m[1], m[2]);
  const items = (id: string | undefined): string[] => {
    if (!id) return [];
    const body = nodes.get(id) ?? '';
    return [...body.matchAll(/i32 (-?\d+)|!"((?:[^"\\]|\\.)*)"/g)].map((x) => (x[1] !== undefined ? x[1] : x[2]));
  };
  const out = new Map<string, ClangKernelMetadata>();
  for (const m of ir.matchAll(/^define [^@]*(?:spir_kernel|amdgpu_kernel|ptx_kernel) void @"?([\w.$]+)"?\(.*$/gm)) {
    const line = m[0];
    const md = (key: string) => new RegExp(`!${key} !(\\d+)`).exec(line)?.[1];
    const vth = md('vec_type_hint');
    out.set(m[1], {
      name: m[1],
      addrSpace: items(md('kernel_arg_addr_space')).map(Number),
      accessQual: items(md('kernel_arg_access_qual')),
      type: items(md('kernel_arg_type')),
      baseType: items(md('kernel_arg_base_type')),
      typeQual: items(md('kernel_arg_type_qual')),
      argName: items(md('kernel_arg_name')),
      ...(md('reqd_work_group_size') ? { reqdWorkGroupSize: items(md('reqd_work_group_size')).map(Number) } : {}),
      ...(md('work_group_size_hint') ? { workGroupSizeHint: items(md('work_group_size_hint')).map(Number) } : {}),
      ...(md('intel_reqd_sub_group_size') ? { intelReqdSubGroupSize: Number(items(md('intel_reqd_sub_group_size'))[0]) } : {}),
      ...(vth ? { vecTypeHint: nodes.get(vth) } : {}),
    });
  }
  return out;
}

export interface AmdhsaArg {
  [key: string]: string | undefined;
}
export interface AmdhsaKernel {
  name: string;
  args: AmdhsaArg[];
  props: Record<string, string>;
}

/** Parses the YAML between `.amdgpu_metadata` and `.end_amdgpu_metadata`, kernels and args only. */
export function parseAmdhsaMetadata(asm: string): Map<string, AmdhsaKernel> {
  const start = asm.indexOf('.amdgpu_metadata');
  const end = asm.indexOf('.end_amdgpu_metadata');
  const lines = asm.slice(start, end).split('\n');
  const kernels: AmdhsaKernel[] = [];
  let kernel: AmdhsaKernel | undefined;
  let arg: AmdhsaArg | undefined;
  let inKernels = false;
  const unquote = (v: string) => v.trim().replace(/^!str /, '').replace(/^'(.*)'$/, '$1').replace(/''/g, "'");
  for (const raw of lines) {
    if (/^amdhsa\.kernels:/.test(raw)) {
      inKernels = true;
      continue;
    }
    if (/^amdhsa\./.test(raw)) inKernels = false;
    if (!inKernels) continue;
    let m = /^  - (\.[\w]+):\s*(.*)$/.exec(raw);
    if (m) {
      kernel = { name: '', args: [], props: {} };
      kernels.push(kernel);
      arg = undefined;
      if (m[1] !== '.args') kernel.props[m[1]] = unquote(m[2]);
      continue;
    }
    m = /^      - (\.[\w]+):\s*(.*)$/.exec(raw);
    if (m && kernel) {
      arg = { [m[1]]: unquote(m[2]) };
      kernel.args.push(arg);
      continue;
    }
    m = /^        (\.[\w]+):\s*(.*)$/.exec(raw);
    if (m && arg) {
      arg[m[1]] = unquote(m[2]);
      continue;
    }
    m = /^    (\.[\w]+):\s*(.*)$/.exec(raw);
    if (m && kernel) {
      arg = undefined;
      kernel.props[m[1]] = unquote(m[2]);
      if (m[1] === '.name') kernel.name = unquote(m[2]);
    }
  }
  return new Map(kernels.map((k) => [k.name, k]));
}

export function clangVersionOk(clang: string): boolean {
  return /version 16\./.test(execFileSync(clang, ['--version'], { encoding: 'utf8' }));
}
