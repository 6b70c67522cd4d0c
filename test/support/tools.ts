import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';

const cache = new Map<string, string | null>();

/** Finds a reference tool; under CI=true a missing tool fails the test instead of skipping it. */
export function findTool(names: string[], probe: string[] = ['--version']): string | null {
  const key = names.join('|');
  if (cache.has(key)) return cache.get(key)!;
  let found: string | null = null;
  for (const n of names) {
    const r = spawnSync(n, probe, { encoding: 'utf8' });
    if (r.status === 0) {
      found = n;
      break;
    }
  }
  cache.set(key, found);
  return found;
}

/** `probe`: the arguments that make the tool exit 0 (spirv-cross has no --version, only --help). */
export function requireTool(t: TestContext, names: string[], probe?: string[]): string | null {
  const tool = findTool(names, probe);
  if (tool) return tool;
  const msg = `reference tool not found: ${names.join(' or ')}`;
  if (process.env.CI === 'true') throw new Error(`${msg} (CI=true: install it; .ci/run does)`);
  t.skip(msg);
  return null;
}

export const CLANG = ['clang-16', '/usr/lib/llvm-16/bin/clang'];
/** Today's LLVM: the amdhsa oracle for `--llvm 19` and code object 6. */
export const CLANG19 = ['clang-19', '/usr/lib/llvm-19/bin/clang'];
/** LLVM 22: the amdhsa oracle for `--llvm 22` (code object 6 its default). */
export const CLANG22_AMDHSA = ['clang-22', '/usr/lib/llvm-22/bin/clang'];
/** LLVM 22's llc: the corpus checks run clang-22's modules through it with their bodies stripped. */
export const LLC22 = ['/usr/lib/llvm-22/bin/llc', 'llc-22'];
/** LLVM 22's readelf: reads the AMDGPU metadata note of a compiled code object. */
export const READELF22 = ['llvm-readelf-22', '/usr/lib/llvm-22/bin/llvm-readelf'];

/** Runs clang on a source text; returns stdout, or throws with stderr. */
export function runClang(clang: string, source: string, args: string[], path?: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'kernarg-clang-'));
  try {
    const file = path ?? join(dir, 'input.cl');
    if (!path) writeFileSync(file, source);
    return execFileSync(clang, [...args, '-o', '-', file], {
      encoding: 'utf8',
      maxBuffer: 256 << 20,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
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
      ...(md('intel_reqd_sub_group_size')
        ? { intelReqdSubGroupSize: Number(items(md('intel_reqd_sub_group_size'))[0]) }
        : {}),
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
  if (start < 0 || end < 0) throw new Error('no .amdgpu_metadata block in the assembly');
  return parseAmdhsaYaml(asm.slice(start, end));
}

/** Parses the `NT_AMDGPU_METADATA` note as `llvm-readelf --notes` prints it (the same YAML, from `---` to `...`). */
export function parseAmdhsaNotes(notes: string): Map<string, AmdhsaKernel> {
  const start = notes.indexOf('AMDGPU Metadata:');
  const end = notes.indexOf('\n...', start);
  if (start < 0 || end < 0) throw new Error('no AMDGPU Metadata note in the readelf output');
  return parseAmdhsaYaml(notes.slice(start, end));
}

function parseAmdhsaYaml(yaml: string): Map<string, AmdhsaKernel> {
  const lines = yaml.split('\n');
  const kernels: AmdhsaKernel[] = [];
  let kernel: AmdhsaKernel | undefined;
  let arg: AmdhsaArg | undefined;
  let inKernels = false;
  const unquote = (v: string) =>
    v
      .trim()
      .replace(/^!str /, '')
      .replace(/^'(.*)'$/, '$1')
      .replace(/''/g, "'");
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

export const LLVM_AS = ['llvm-as-16', '/usr/lib/llvm-16/bin/llvm-as'];
export const LLC = ['/usr/lib/llvm-16/bin/llc', 'llc-16'];

/** Assembles IR with llvm-as; returns the error text, or '' when it is valid. */
export function llvmAsErrors(llvmAs: string, ir: string): string {
  const r = spawnSync(llvmAs, ['-o', '/dev/null', '-'], { input: ir, encoding: 'utf8' });
  return r.status === 0 ? '' : r.stderr || `llvm-as exited ${r.status}`;
}

/** Runs llc -march=r600 -print-after-all; returns the first IR dump in which no resource-id query is left. */
export function r600AfterImagePass(llc: string, ir: string): string {
  const r = spawnSync(
    llc,
    ['-march=r600', '-mcpu=cypress', '-print-after-all', '-stop-after=amdgpu-lower-module-lds', '-o', '/dev/null', '-'],
    { input: ir, encoding: 'utf8', maxBuffer: 256 << 20 },
  );
  if (r.status !== 0) throw new Error(`llc failed: ${r.stderr.slice(-2000)}`);
  const dumps = r.stderr.split(/^\*\*\* IR Dump After .*\*\*\*$/m).slice(1);
  const done = dumps.find(
    (d) => /^define /m.test(d) && /^!opencl\.kernels/m.test(d) && !/call i32 @llvm\.OpenCL\./.test(d),
  );
  if (!done) throw new Error('no IR dump after the image pass');
  return done;
}

export interface LegacyKernel {
  params: { type: string; name: string }[];
  tuples: Record<string, string[]>;
  /** Resource ids stored by the probes: parameter name → value. */
  resourceIds: Map<string, number>;
}

/** Reads `define` signatures, the `!opencl.kernels` tuples and the folded probe stores of an r600 module. */
export function parseLegacyModule(ir: string): Map<string, LegacyKernel> {
  const nodes = new Map<string, string>();
  for (const m of ir.matchAll(/^!(\d+) = !\{(.*)\}$/gm)) nodes.set(m[1], m[2]);
  const out = new Map<string, LegacyKernel>();
  for (const m of ir.matchAll(/^define [^@]*@([\w.$]+)\((.*)\)[^(]*\{$/gm)) {
    const params = m[2]
      ? m[2].split(/, (?![^(]*\))/).map((p) => {
          const pm = /^(.*) %([\w.$]+)$/.exec(p.trim());
          return { type: pm ? pm[1] : p, name: pm ? pm[2] : '' };
        })
      : [];
    out.set(m[1], { params, tuples: {}, resourceIds: new Map() });
  }
  const list = /^!opencl\.kernels = !\{(.*)\}$/m.exec(ir)?.[1] ?? '';
  for (const ref of list.split(', ').filter(Boolean)) {
    const body = nodes.get(ref.slice(1)) ?? '';
    const parts = body.split(', ');
    const fn = /@([\w.$]+)/.exec(parts[0])?.[1];
    const k = fn ? out.get(fn) : undefined;
    if (!k) continue;
    for (const r of parts.slice(1)) {
      const items = [...(nodes.get(r.slice(1)) ?? '').matchAll(/i32 (-?\d+)|!"((?:[^"\\]|\\.)*)"/g)].map((x) =>
        x[1] !== undefined ? x[1] : x[2],
      );
      k.tuples[items[0]] = items.slice(1);
    }
  }
  for (const m of ir.matchAll(/store volatile i32 (-?\d+), ptr addrspace\(1\) @kernarg\.rid\.([\w$]+)\.([\w$]+)/g))
    out.get(m[2])?.resourceIds.set(m[3], Number(m[1]));
  return out;
}
