import { AMDGCN } from '../layout/data-layout.js';
import { irAlign } from '../layout/ir-align.js';
import { layoutOf } from '../layout/layout.js';
import { type FunctionInfo, type KernelModule, kernelsOf } from '../model/kernel-module.js';
import { kernelArgTypeName } from '../types/print.js';
import { canonical } from '../types/types.js';
import { callsTransitively } from './call-graph.js';
import type { AmdhsaKernelPlan, AmdhsaPlan, AmdhsaSlot } from './plan.js';
import { originFields } from './origin.js';
import { valueLayout } from './value-layout.js';

export type AmdhsaCodeObject = 4 | 5 | 6;
/** The LLVM generation whose AMDGPU backend the layout follows: 16 (ROCm 5.5–5.7) or 19 (ROCm 6.3–6.4, the default). */
export type AmdhsaLlvm = 16 | 19;
export const AMDHSA_LLVMS: readonly AmdhsaLlvm[] = [16, 19];
export const AMDHSA_CODE_OBJECTS: readonly AmdhsaCodeObject[] = [4, 5, 6];

export interface AmdhsaTargetOptions {
  /** Code object version: 4 (56 hidden bytes), 5 (256, the default) or 6 (LLVM 18 and later; the same kernarg layout as 5). */
  readonly codeObject?: AmdhsaCodeObject;
  /** Compiler generation (default 19). */
  readonly llvm?: AmdhsaLlvm;
}

/** Why an option pair cannot be laid out, or undefined: clang-16 does not know code object 6. */
export function amdhsaOptionProblem(o: AmdhsaTargetOptions): string | undefined {
  if ((o.codeObject ?? 5) === 6 && (o.llvm ?? 19) < 18) return 'code object 6 needs LLVM 18 or later (--llvm 19)';
  return undefined;
}

const alignTo = (n: number, a: number) => Math.ceil(n / a) * a;

interface Hidden {
  readonly offset: number;
  readonly size: number;
  readonly kind: string;
}

/** What decides which hidden arguments a kernel gets. */
interface HiddenFacts {
  readonly modulePrints: boolean;
  readonly enqueues: boolean;
  /** The kernel has a local-memory pointer parameter (dynamic LDS). */
  readonly dynamicLds: boolean;
}

/**
 * The hidden arguments clang emits at -O0 for gfx900, from the hidden base. Code object 4:
 * slot +24 is the printf buffer when the module calls printf, else the hostcall buffer; +40 is
 * the completion action — LLVM 16 only for kernels that enqueue (else `hidden_none`), LLVM 19
 * always (at -O0 no pass proves it unused). Code objects 5 and 6: the printf buffer only when the
 * module calls printf; the completion action for enqueuers (LLVM 16) or always (LLVM 19);
 * LLVM 19 (from LLVM 18, llvm-project #65273) adds `hidden_dynamic_lds_size` (u32) at +120 for
 * kernels with local pointer parameters (OpenCL C has no other dynamic LDS);
 * unused entries leave gaps.
 */
function hiddenArgs(codeObject: AmdhsaCodeObject, llvm: AmdhsaLlvm, f: HiddenFacts): Hidden[] {
  const { modulePrints } = f;
  const completion = llvm >= 19 || f.enqueues;
  if (codeObject === 4) {
    return [
      { offset: 0, size: 8, kind: 'hidden_global_offset_x' },
      { offset: 8, size: 8, kind: 'hidden_global_offset_y' },
      { offset: 16, size: 8, kind: 'hidden_global_offset_z' },
      { offset: 24, size: 8, kind: modulePrints ? 'hidden_printf_buffer' : 'hidden_hostcall_buffer' },
      { offset: 32, size: 8, kind: 'hidden_default_queue' },
      { offset: 40, size: 8, kind: completion ? 'hidden_completion_action' : 'hidden_none' },
      { offset: 48, size: 8, kind: 'hidden_multigrid_sync_arg' },
    ];
  }
  const out: Hidden[] = [
    { offset: 0, size: 4, kind: 'hidden_block_count_x' },
    { offset: 4, size: 4, kind: 'hidden_block_count_y' },
    { offset: 8, size: 4, kind: 'hidden_block_count_z' },
    { offset: 12, size: 2, kind: 'hidden_group_size_x' },
    { offset: 14, size: 2, kind: 'hidden_group_size_y' },
    { offset: 16, size: 2, kind: 'hidden_group_size_z' },
    { offset: 18, size: 2, kind: 'hidden_remainder_x' },
    { offset: 20, size: 2, kind: 'hidden_remainder_y' },
    { offset: 22, size: 2, kind: 'hidden_remainder_z' },
    { offset: 40, size: 8, kind: 'hidden_global_offset_x' },
    { offset: 48, size: 8, kind: 'hidden_global_offset_y' },
    { offset: 56, size: 8, kind: 'hidden_global_offset_z' },
    { offset: 64, size: 2, kind: 'hidden_grid_dims' },
  ];
  if (modulePrints) out.push({ offset: 72, size: 8, kind: 'hidden_printf_buffer' });
  out.push(
    { offset: 80, size: 8, kind: 'hidden_hostcall_buffer' },
    { offset: 88, size: 8, kind: 'hidden_multigrid_sync_arg' },
    { offset: 96, size: 8, kind: 'hidden_heap_v1' },
    { offset: 104, size: 8, kind: 'hidden_default_queue' },
  );
  if (completion) out.push({ offset: 112, size: 8, kind: 'hidden_completion_action' });
  if (llvm >= 19 && f.dynamicLds) out.push({ offset: 120, size: 4, kind: 'hidden_dynamic_lds_size' });
  out.push({ offset: 200, size: 8, kind: 'hidden_queue_ptr' });
  return out;
}

function explicitSlot(p: FunctionInfo['params'][number], offset: number): { slot: AmdhsaSlot; align: number } {
  const c = canonical(p.type);
  const t = c.type;
  const base = { name: p.name, param: p.index, typeName: kernelArgTypeName(p.type), type: p.type };
  const o = (role: AmdhsaSlot['role']) => originFields(p, role);
  if (t.kind === 'pointer') {
    const pointee = canonical(t.pointee);
    if (pointee.space === 'local') {
      const pointeeAlign = pointee.type.kind === 'scalar' && pointee.type.name === 'void' ? 1 : layoutOf(pointee, AMDGCN).align;
      const off = alignTo(offset, 4);
      return { slot: { ...base, ...o('local'), offset: off, size: 4, valueKind: 'dynamic_shared_pointer', addressSpace: 'local', pointeeAlign }, align: 4 };
    }
    const off = alignTo(offset, 8);
    return { slot: { ...base, ...o('data'), offset: off, size: 8, valueKind: 'global_buffer', addressSpace: pointee.space === 'constant' ? 'constant' : 'global' }, align: 8 };
  }
  const handle = (role: AmdhsaSlot['role'], valueKind: string, extra: Partial<AmdhsaSlot> = {}) => {
    const off = alignTo(offset, 8);
    return { slot: { ...base, ...o(role), offset: off, size: 8, valueKind, ...extra }, align: 8 };
  };
  if (t.kind === 'image') return handle('image', 'image', { access: c.access ?? 'read_only' });
  if (t.kind === 'pipe') return handle('pipe', 'pipe', { access: c.access ?? 'read_only' });
  if (t.kind === 'opaque' && t.name === 'sampler_t') return handle('sampler', 'sampler');
  if (t.kind === 'opaque' && t.name === 'queue_t') return handle('queue', 'queue');
  const size = layoutOf(p.type, AMDGCN).size;
  const align = irAlign(p.type, AMDGCN);
  const off = alignTo(offset, align);
  return { slot: { ...base, ...o('value'), offset: off, size, valueKind: 'by_value', layout: valueLayout(p.type, AMDGCN) }, align };
}

/** ROCm's kernarg segment for amdgcn-amd-amdhsa (gfx900), as clang-16 or clang-19 lays it out at -O0. */
export function lowerAmdhsa(module: KernelModule, options: AmdhsaTargetOptions = {}): AmdhsaPlan {
  const codeObject = options.codeObject ?? 5;
  const llvm = options.llvm ?? 19;
  const modulePrints = module.functions.some((f) => f.calls.some((c) => c.name === 'printf'));
  const kernels: AmdhsaKernelPlan[] = kernelsOf(module).map((k) => {
    const args: AmdhsaSlot[] = [];
    let offset = 0;
    let maxAlign = 4;
    for (const p of k.params) {
      const { slot, align } = explicitSlot(p, offset);
      args.push({ ...slot, align });
      offset = slot.offset + slot.size;
      maxAlign = Math.max(maxAlign, align);
    }
    const hiddenBase = alignTo(offset, 8);
    const enqueues = callsTransitively(module, k, 'enqueue_kernel');
    const dynamicLds = args.some((a) => a.valueKind === 'dynamic_shared_pointer');
    for (const h of hiddenArgs(codeObject, llvm, { modulePrints, enqueues, dynamicLds })) {
      args.push({ name: h.kind, param: null, role: 'hidden', offset: hiddenBase + h.offset, size: h.size, valueKind: h.kind, align: h.size });
    }
    const hiddenBytes = codeObject === 4 ? 56 : 256;
    return {
      name: k.name,
      args,
      kernargSegmentSize: alignTo(hiddenBase + hiddenBytes, 4),
      kernargSegmentAlign: Math.max(maxAlign, 8),
      hiddenBytes,
    };
  });
  return { target: 'amdhsa', codeObject, llvm, mcpu: 'gfx900', kernels };
}
