// clang's hidden kernel arguments for amdgcn-amd-amdhsa (gfx900, -O0), one row per argument: its
// size, how the launch fills it, and where each code object puts it (from the hidden base) and
// when. The lowering, the placement and the plan reader read these rows; nothing else states them.
// Where a generation differs from the others the row says so, with what was checked against.
import type { GeometryField } from '../../layout/placement.js';

export type AmdhsaCodeObject = 4 | 5 | 6;
/**
 * The LLVM generation whose AMDGPU backend the layout follows: 16 (ROCm 5.5–5.6), 19 (ROCm 6.4)
 * or 22 (today's LLVM, the default). 19 and 22 give the same hidden arguments (checked against
 * clang-19 and clang-22).
 */
export type AmdhsaLlvm = 16 | 19 | 22;

/** What decides which hidden arguments a kernel gets. */
export interface HiddenFacts {
  readonly modulePrints: boolean;
  readonly enqueues: boolean;
  /** The kernel has a local-memory pointer parameter (dynamic LDS). */
  readonly dynamicLds: boolean;
}

/** When a hidden argument is there, given its generation and the kernel's facts. */
type Presence = (llvm: AmdhsaLlvm, f: HiddenFacts) => boolean;
const always: Presence = () => true;
const prints: Presence = (_, f) => f.modulePrints;
/**
 * The completion action: clang-16 gives it only to kernels that enqueue; from LLVM 19 every kernel
 * has it (at -O0 no pass proves it unused).
 */
const completes: Presence = (llvm, f) => llvm >= 19 || f.enqueues;

/** Where an argument sits in a code object's hidden block (from the hidden base), and when. */
interface Placement {
  readonly offset: number;
  readonly when: Presence;
}

/** How the launch fills a hidden argument. */
type HiddenFill =
  | { readonly kind: 'geometry'; readonly field: GeometryField; readonly axis: 0 | 1 | 2 }
  /** A value the runtime supplies by name (`LaunchInfo.hidden`), 0 when absent. */
  | { readonly kind: 'runtime' }
  /** The dispatch's dynamic LDS bytes: the sum of the kernel's local arguments. */
  | { readonly kind: 'lds-size' }
  | { readonly kind: 'zero' };

interface HiddenRow {
  readonly bytes: 2 | 4 | 8;
  readonly fill: HiddenFill;
  /** Code object 4's 56-byte block. */
  readonly v4?: Placement;
  /** Code objects 5 and 6 (6 keeps 5's kernarg layout): the 256-byte implicit-argument block. */
  readonly v5?: Placement;
}

const geometry = (field: GeometryField, axis: 0 | 1 | 2): HiddenFill => ({ kind: 'geometry', field, axis });
const runtime: HiddenFill = { kind: 'runtime' };
const at = (offset: number, when: Presence = always): Placement => ({ offset, when });

/** Rows in the order the plan reader's messages list the kinds; `hiddenArgs` orders by offset. */
export const HIDDEN_ARGS = {
  // From LLVM 18 (llvm-project #65273; checked against clang-19 and clang-22), for kernels with local
  // pointer parameters (OpenCL C has no other dynamic LDS); clang-16 has no such argument.
  hidden_dynamic_lds_size: {
    bytes: 4,
    fill: { kind: 'lds-size' },
    v5: at(120, (llvm, f) => llvm >= 19 && f.dynamicLds),
  },
  hidden_global_offset_x: { bytes: 8, fill: geometry('global-offset', 0), v4: at(0), v5: at(40) },
  hidden_global_offset_y: { bytes: 8, fill: geometry('global-offset', 1), v4: at(8), v5: at(48) },
  hidden_global_offset_z: { bytes: 8, fill: geometry('global-offset', 2), v4: at(16), v5: at(56) },
  // Code object 4: +24 is the printf buffer when the module calls printf, else the hostcall buffer.
  hidden_printf_buffer: { bytes: 8, fill: runtime, v4: at(24, prints), v5: at(72, prints) },
  hidden_hostcall_buffer: { bytes: 8, fill: runtime, v4: at(24, (l, f) => !prints(l, f)), v5: at(80) },
  hidden_default_queue: { bytes: 8, fill: runtime, v4: at(32), v5: at(104) },
  hidden_completion_action: { bytes: 8, fill: runtime, v4: at(40, completes), v5: at(112, completes) },
  // Code object 4 leaves +40 to `hidden_none` where there is no completion action; 5 and 6 leave a gap.
  hidden_none: { bytes: 8, fill: { kind: 'zero' }, v4: at(40, (l, f) => !completes(l, f)) },
  hidden_multigrid_sync_arg: { bytes: 8, fill: runtime, v4: at(48), v5: at(88) },
  hidden_block_count_x: { bytes: 4, fill: geometry('block-count', 0), v5: at(0) },
  hidden_block_count_y: { bytes: 4, fill: geometry('block-count', 1), v5: at(4) },
  hidden_block_count_z: { bytes: 4, fill: geometry('block-count', 2), v5: at(8) },
  hidden_group_size_x: { bytes: 2, fill: geometry('group-size', 0), v5: at(12) },
  hidden_group_size_y: { bytes: 2, fill: geometry('group-size', 1), v5: at(14) },
  hidden_group_size_z: { bytes: 2, fill: geometry('group-size', 2), v5: at(16) },
  hidden_remainder_x: { bytes: 2, fill: geometry('remainder', 0), v5: at(18) },
  hidden_remainder_y: { bytes: 2, fill: geometry('remainder', 1), v5: at(20) },
  hidden_remainder_z: { bytes: 2, fill: geometry('remainder', 2), v5: at(22) },
  hidden_grid_dims: { bytes: 2, fill: geometry('grid-dims', 0), v5: at(64) },
  hidden_heap_v1: { bytes: 8, fill: runtime, v5: at(96) },
  hidden_queue_ptr: { bytes: 8, fill: runtime, v5: at(200) },
} as const satisfies Record<string, HiddenRow>;

export type HiddenKind = keyof typeof HIDDEN_ARGS;
export const HIDDEN_KINDS = Object.keys(HIDDEN_ARGS) as readonly HiddenKind[];

export function isHiddenKind(kind: string): kind is HiddenKind {
  return Object.hasOwn(HIDDEN_ARGS, kind);
}

/** Bytes of each code object's hidden block (what follows the explicit arguments in the segment). */
export const HIDDEN_BYTES = { 4: 56, 5: 256, 6: 256 } as const satisfies Record<AmdhsaCodeObject, number>;

export interface Hidden {
  readonly offset: number;
  readonly size: number;
  readonly kind: HiddenKind;
}

/** The hidden arguments a kernel gets, by offset from the hidden base; unused entries leave gaps. */
export function hiddenArgs(codeObject: AmdhsaCodeObject, llvm: AmdhsaLlvm, f: HiddenFacts): Hidden[] {
  const out: Hidden[] = [];
  for (const kind of HIDDEN_KINDS) {
    const row: HiddenRow = HIDDEN_ARGS[kind];
    const p = codeObject === 4 ? row.v4 : row.v5;
    if (p && p.when(llvm, f)) out.push({ offset: p.offset, size: row.bytes, kind });
  }
  return out.sort((a, b) => a.offset - b.offset);
}
