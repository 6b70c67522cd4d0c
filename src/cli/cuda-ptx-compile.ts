// OpenCL C → PTX for `kernarg run <file.cl> --api cuda`: clang's NVPTX backend (nvptx64-nvidia-nvcl,
// the target the cuda plan models) where a clang with it is installed. clang leaves OpenCL's
// work-item functions as calls to functions it does not define (there is no libclc here), which
// the CUDA driver cannot link, so they are defined first from PTX's special registers; a module
// that still calls an undefined function is refused with the names.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BuildFlag } from '../build-input/build-input.js';
import { assertNever } from '../assert-never.js';

/** The clangs tried, oldest first: the oldest PTX ISA version loads on the most drivers. */
const CLANGS = ['clang-16', 'clang-19', 'clang-22', 'clang'];

/**
 * OpenCL's work-item functions from PTX's special registers (%tid, %ntid, %ctaid, %nctaid): a
 * launch through the driver API has no global offset, so get_global_offset is 0.
 */
export const WORK_ITEM_PRELUDE = `#define KA_AXIS(d, x, y, z) ((d) == 0 ? (x) : (d) == 1 ? (y) : (d) == 2 ? (z) : 0)
size_t __attribute__((overloadable)) get_local_id(uint d) { return KA_AXIS(d, __nvvm_read_ptx_sreg_tid_x(), __nvvm_read_ptx_sreg_tid_y(), __nvvm_read_ptx_sreg_tid_z()); }
size_t __attribute__((overloadable)) get_local_size(uint d) { return d > 2 ? 1 : KA_AXIS(d, __nvvm_read_ptx_sreg_ntid_x(), __nvvm_read_ptx_sreg_ntid_y(), __nvvm_read_ptx_sreg_ntid_z()); }
size_t __attribute__((overloadable)) get_group_id(uint d) { return KA_AXIS(d, __nvvm_read_ptx_sreg_ctaid_x(), __nvvm_read_ptx_sreg_ctaid_y(), __nvvm_read_ptx_sreg_ctaid_z()); }
size_t __attribute__((overloadable)) get_num_groups(uint d) { return d > 2 ? 1 : KA_AXIS(d, __nvvm_read_ptx_sreg_nctaid_x(), __nvvm_read_ptx_sreg_nctaid_y(), __nvvm_read_ptx_sreg_nctaid_z()); }
size_t __attribute__((overloadable)) get_global_id(uint d) { return get_group_id(d) * get_local_size(d) + get_local_id(d); }
size_t __attribute__((overloadable)) get_global_size(uint d) { return get_num_groups(d) * get_local_size(d); }
size_t __attribute__((overloadable)) get_global_offset(uint d) { return 0; }
#undef KA_AXIS
`;

/** A clang whose NVPTX backend is built in, or undefined. */
export function findNvptxClang(): string | undefined {
  for (const c of CLANGS) {
    const r = spawnSync(c, ['--print-targets'], { encoding: 'utf8' });
    if (r.status === 0 && /\bnvptx64\b/.test(r.stdout)) return c;
  }
  return undefined;
}

/** The functions a PTX module declares (`.func … ;`) but never defines (`.func … {`). */
export function undefinedFunctions(ptx: string): string[] {
  const declared = new Set<string>();
  const defined = new Set<string>();
  // A .func header: optional return parameter in parentheses, the name, the parameter list, then ';' or '{'.
  const header =
    /^\s*(?:\.extern\s+|\.visible\s+|\.weak\s+)?\.func\s+(?:\([^)]*\)\s*)?([\w$.]+)\s*(?:\([^)]*\))?\s*([;{])/gm;
  for (const m of ptx.matchAll(header)) (m[2] === '{' ? defined : declared).add(m[1]);
  return [...declared].filter((n) => !defined.has(n));
}

export type PtxCompile =
  | { readonly ptx: string; readonly clang: string }
  | { readonly noCompiler: string }
  | { readonly refused: string; readonly clang: string };

/** One build flag as clang spells it. */
function clangFlag(f: BuildFlag): string[] {
  switch (f.kind) {
    case 'std':
      return [`-cl-std=${f.std}`];
    case 'include':
      return ['-I', f.dir];
    case 'define':
      return [`-D${f.name}${f.value !== undefined ? `=${f.value}` : ''}`];
    case 'undefine':
      return [`-U${f.name}`];
    default:
      return assertNever(f);
  }
}

/** Compiles one OpenCL C file for nvptx64-nvidia-nvcl (or nvptx-nvidia-nvcl), with the build's flags. */
export function compileClToPtx(
  path: string,
  flags: readonly BuildFlag[],
  arch: 'nvptx64' | 'nvptx' = 'nvptx64',
): PtxCompile {
  const clang = findNvptxClang();
  if (!clang) return { noCompiler: `no clang with the NVPTX backend was found (tried ${CLANGS.join(', ')})` };
  const dir = mkdtempSync(join(tmpdir(), 'kernarg-ptx-'));
  try {
    const prelude = join(dir, 'work-items.h');
    writeFileSync(prelude, WORK_ITEM_PRELUDE);
    const args = [
      '-x',
      'cl',
      '-Xclang',
      '-finclude-default-header',
      '-include',
      prelude,
      '-target',
      `${arch}-nvidia-nvcl`,
      '-S',
      '-O2',
      '-o',
      '-',
    ];
    for (const f of flags) args.push(...clangFlag(f));
    args.push(path);
    const r = spawnSync(clang, args, { encoding: 'utf8', maxBuffer: 256 << 20 });
    if (r.status !== 0) return { refused: (r.stderr || r.error?.message || `exit ${r.status}`).trim(), clang };
    const missing = undefinedFunctions(r.stdout);
    if (missing.length)
      return {
        refused:
          `the module calls functions nothing defines (OpenCL builtins past the work-item functions need ` +
          `libclc): ${missing.join(', ')}`,
        clang,
      };
    return { ptx: r.stdout, clang };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
