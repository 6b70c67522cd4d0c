import type { SlotLiteral } from '../../abi/slot-shape.js';
import { amdCl2Slot } from './slot.js';
import { alignTo } from '../../layout/align.js';
import { DiagnosticBag } from '../../diagnostics/diagnostic.js';
import { Messages } from '../../diagnostics/messages.js';
import { AMDGCN } from '../../layout/data-layout.js';
import { layoutOf, scalarSize } from '../../layout/layout.js';
import { type FunctionInfo, type KernelModule, type Parameter, kernelsOf } from '../../model/kernel-module.js';
import { markSharedRun } from '../../abi/shared-runs.js';
import { KernelShapeMemo } from '../../abi/kernel-shape-memo.js';
import { someKernelMayReport } from '../../abi/may-report.js';
import { kernelArgTypeName, typeToString } from '../../types/print.js';
import { type QualType, type Type, canonical } from '../../types/types.js';
import type { AmdCl2KernelPlan, AmdCl2Plan, AmdCl2Slot, Bare, UserSgprLayout } from '../../abi/plan.js';
import { placeAmdCl2Kernel } from './placement.js';
import { spelledOnce } from '../../text/spelled-once.js';
import { originParam, originRole, withOriginDetail } from '../../abi/origin.js';
import { valueLayout } from '../../layout/value-layout.js';
import { assertNever } from '../../assert-never.js';
import { classifyArg } from '../../model/arg-class.js';

export type AmdCl2Feature = 'setup' | 'args' | 'enqueue' | 'generic';
export const AMD_CL2_FEATURES: readonly AmdCl2Feature[] = ['setup', 'args', 'enqueue', 'generic'];

export interface AmdCl2TargetOptions {
  readonly bits?: 32 | 64;
  /** `new`: drivers from 191205 on (3-vectors take 4 components, size rounded to 16); `old` before. */
  readonly driver?: 'new' | 'old';
  readonly use?: readonly AmdCl2Feature[];
  readonly gfx9?: boolean;
}

const SETUP_ARGS = [
  '_.global_offset_0',
  '_.global_offset_1',
  '_.global_offset_2',
  '_.printf_buffer',
  '_.vqueue_pointer',
  '_.aqlwrap_pointer',
];
const IMAGE_WORDS: Record<string, string> = {
  image1d_t: 'image1d',
  image1d_array_t: 'image1d_array',
  image1d_buffer_t: 'image1d_buffer',
  image2d_t: 'image2d',
  image2d_array_t: 'image2d_array',
  image3d_t: 'image3d',
};

/** User data SGPRs by enabled features (the highest one decides), per CLRX's description. */
export function userSgprs(use: readonly AmdCl2Feature[], gfx9: boolean): UserSgprLayout {
  const has = (f: AmdCl2Feature) => use.includes(f);
  const level = has('generic') ? 4 : has('enqueue') ? 3 : has('setup') ? 2 : has('args') ? 1 : 0;
  const count = (gfx9 ? [6, 8, 10, 10, 12] : [4, 6, 8, 10, 12])[level];
  const base = {
    count,
    scratchDescriptor: [0, 3] as const,
    flatBasesPointer: null,
    flatScratchOffset: null,
    scratchPerThread: null,
  };
  if (level === 0) return { ...base, setupPointer: null, argsPointer: null };
  if (level === 1) return { ...base, setupPointer: null, argsPointer: [4, 5] };
  if (level < 4) return { ...base, setupPointer: [4, 5], argsPointer: [6, 7] };
  return {
    ...base,
    setupPointer: [4, 5],
    argsPointer: [8, 9],
    flatBasesPointer: [6, 7],
    flatScratchOffset: 10,
    scratchPerThread: 11,
  };
}

export const SETUP_BUFFER: AmdCl2Plan['setupBuffer'] = [
  { dword: 0, bits: '16-31', field: 'dimensions' },
  { dword: 1, bits: '0-15', field: 'local size X (enqueued)' },
  { dword: 1, bits: '16-31', field: 'local size Y (enqueued)' },
  { dword: 2, bits: '0-15', field: 'local size Z (enqueued)' },
  { dword: 3, bits: '0-31', field: 'global size X' },
  { dword: 4, bits: '0-31', field: 'global size Y' },
  { dword: 5, bits: '0-31', field: 'global size Z' },
];

/** CLRX's word for a scalar or vector type, or undefined when CLRX has none (half, bool). */
function scalarWord(t: Type): { word: string; element: number; length: number } | undefined {
  if (t.kind === 'enum') return scalarWord({ kind: 'scalar', name: t.decl.underlying });
  if (t.kind === 'scalar') {
    if (!['char', 'uchar', 'short', 'ushort', 'int', 'uint', 'long', 'ulong', 'float', 'double'].includes(t.name))
      return undefined;
    return { word: t.name, element: scalarSize(t.name, AMDGCN), length: 1 };
  }
  if (t.kind === 'vector') {
    if (t.element === 'half') return undefined;
    return { word: `${t.element}${t.length}`, element: scalarSize(t.element, AMDGCN), length: t.length };
  }
  return undefined;
}

function pointeeWord(t: QualType): { word: string; structSize?: number } | undefined {
  const c = canonical(t).type;
  if (c.kind === 'scalar' && c.name === 'void') return { word: 'void' };
  if (c.kind === 'record') return { word: 'structure', structSize: layoutOf(c, AMDGCN).size };
  const s = scalarWord(c);
  if (s) return { word: s.word };
  if (c.kind === 'scalar' && c.name === 'half') return { word: 'void' };
  if (c.kind === 'vector' && c.element === 'half') return { word: 'void' };
  return undefined;
}

/**
 * The AMD Catalyst OpenCL 2.0 argument buffer: six setup arguments, then the kernel's,
 * laid out as CLRX computes it (pointers, handles and structures pointer-sized; scalars and
 * vectors aligned to their element size).
 */
export function lowerAmdCl2(
  module: KernelModule,
  options: AmdCl2TargetOptions,
  diags: DiagnosticBag,
): AmdCl2Plan | undefined {
  const { head, kernels } = amdCl2Kernelwise(module, options);
  const plans: AmdCl2KernelPlan[] = [];
  for (let it = kernels(diags), k = it.next(); !k.done; k = it.next()) plans.push(k.value);
  if (diags.hasErrors) return undefined;
  return { ...head, kernels: plans };
}

/**
 * `lowerAmdCl2` a kernel at a time: the setup slots and user SGPR layout are made once and shared,
 * the rest is each kernel's own. A kernel's argument can be refused: its diagnostics go to `diags`.
 */
export function amdCl2Kernelwise(
  module: KernelModule,
  options: AmdCl2TargetOptions,
): {
  head: Omit<AmdCl2Plan, 'kernels'>;
  count: number;
  kernels: (diags: DiagnosticBag) => Iterator<AmdCl2KernelPlan>;
} {
  const bits = options.bits ?? 64;
  const driver = options.driver ?? 'new';
  const use = options.use ?? ['args'];
  const gfx9 = options.gfx9 ?? false;
  const P = bits / 8;
  // The six setup arguments and the user SGPR layout are the same for every kernel: made once, shared (read-only).
  const setup: Bare<AmdCl2Slot>[] = [];
  let setupEnd = 0;
  for (const name of SETUP_ARGS) {
    const isPtr = name === '_.printf_buffer';
    setup.push(
      amdCl2Slot({
        name,
        param: null,
        role: 'setup',
        offset: setupEnd,
        size: P,
        align: P,
        argType: isPtr ? 'void*' : bits === 64 ? 'long' : 'int',
        typeName: 'size_t',
        addressSpace: isPtr ? 'global' : undefined,
      }),
    );
    setupEnd += P;
  }
  // Every kernel's run of setup slots: the JSON emitter keeps its text from the first kernel.
  markSharedRun(setup[0]);
  const sgprs = userSgprs(use, gfx9);
  const kernels = kernelsOf(module);
  return {
    head: { target: 'amd-cl2', bits, driver, use, gfx9, setupBuffer: SETUP_BUFFER },
    count: kernels.length,
    *kernels(diags) {
      const memo = new KernelShapeMemo<AmdCl2KernelPlan>(module);
      for (const k of kernels) yield memo.plan(k, make, diags);
      function make(k: FunctionInfo): AmdCl2KernelPlan {
        // Made at its final length (a copy of the setup slots regrows as the kernel's own are pushed).
        const args = new Array<Bare<AmdCl2Slot>>(setup.length + k.params.length);
        for (let i = 0; i < setup.length; i++) args[i] = setup[i];
        let n = setup.length;
        let off = setupEnd;
        const counters = { read_only: 0, write_only: 0, read_write: 0, sampler: 0 };
        for (const p of k.params) {
          const slot = userSlot(p, off, P, driver, counters, diags);
          if (!slot) continue;
          args[n++] = slot;
          off = slot.offset + slot.size;
        }
        // A refused parameter has no slot (the lowering then fails with its diagnostic).
        args.length = n;
        return placeAmdCl2Kernel(
          { name: k.name, args, kernargSize: driver === 'new' ? alignTo(off, 16) : off, userSgprs: sgprs },
          bits,
        );
      }
    },
  };
}

/**
 * Whether lowering some kernel can report (what a streamed lowering asks before it writes: `KernelwiseLowering.quiet`):
 * an argument CLRX has no type for, which the argument's type alone decides.
 */
export function amdCl2MayReport(module: KernelModule, options: AmdCl2TargetOptions): boolean {
  const P = (options.bits ?? 64) / 8;
  const driver = options.driver ?? 'new';
  return someKernelMayReport(kernelsOf(module), (p) => {
    const counters = { read_only: 0, write_only: 0, read_write: 0, sampler: 0 };
    return userSlot(p, 0, P, driver, counters, new DiagnosticBag()) === undefined ? undefined : 0;
  });
}

/** The `qualifiers` of a pointer argument (CLRX's order), or undefined when it has none. */
function qualifiersOf(t: QualType, pointee: QualType): ('const' | 'restrict' | 'volatile')[] | undefined {
  const isConst = pointee.const === true;
  const isRestrict = canonical(t).restrict === true;
  const isVolatile = pointee.volatile === true;
  if (!isConst && !isRestrict && !isVolatile) return undefined;
  const out: ('const' | 'restrict' | 'volatile')[] = [];
  if (isConst) out.push('const');
  if (isRestrict) out.push('restrict');
  if (isVolatile) out.push('volatile');
  return out;
}

/**
 * One kernel argument's slot, as one object literal per shape (src/abi/slot-shape.ts says why).
 */
function userSlot(
  p: Parameter,
  offset: number,
  P: number,
  driver: 'new' | 'old',
  counters: { read_only: number; write_only: number; read_write: number; sampler: number },
  diags: DiagnosticBag,
): Bare<AmdCl2Slot> | undefined {
  const name = p.name;
  const param = originParam(p);
  const type = p.type;
  const arg = classifyArg(type);
  // Pointers and handles: pointer-sized and aligned.
  const at = alignTo(offset, P);
  let s: SlotLiteral<AmdCl2Slot>;
  switch (arg.kind) {
    case 'buffer':
    case 'local': {
      const pointee = arg.pointee;
      const w = pointeeWord(pointee);
      if (!w) {
        diags.report(Messages.clrxNoPointerType, p.span, [typeToString(type)]);
        return undefined;
      }
      const typeName = kernelArgTypeName(type);
      const role = originRole(p, arg.kind === 'local' ? 'local' : 'data');
      // CLRX's pointer words (`uint*`, `structure*`), each made once.
      const argType = spelledOnce(w.word, '*');
      const addressSpace = arg.kind === 'local' ? 'local' : arg.space;
      const structSize = w.structSize;
      const qualifiers = qualifiersOf(type, pointee);
      s = amdCl2Slot({
        name,
        param,
        typeName,
        type,
        role,
        offset: at,
        size: P,
        align: P,
        argType,
        addressSpace,
        structSize,
        qualifiers,
      });
      break;
    }
    case 'image': {
      const word = IMAGE_WORDS[arg.image];
      if (!word) {
        diags.report(Messages.clrxNoImageType, p.span, [arg.image]);
        return undefined;
      }
      const resourceId = counters[arg.access]++;
      s = amdCl2Slot({
        name,
        param,
        typeName: kernelArgTypeName(type),
        type,
        role: originRole(p, 'image'),
        offset: at,
        size: P,
        align: P,
        argType: word,
        access: arg.access,
        resourceId,
      });
      break;
    }
    case 'sampler': {
      const resourceId = counters.sampler++;
      s = amdCl2Slot({
        name,
        param,
        typeName: kernelArgTypeName(type),
        type,
        role: originRole(p, 'sampler'),
        offset: at,
        size: P,
        align: P,
        argType: 'sampler',
        resourceId,
      });
      break;
    }
    case 'queue':
      s = amdCl2Slot({
        name,
        param,
        typeName: kernelArgTypeName(type),
        type,
        role: originRole(p, 'queue'),
        offset: at,
        size: P,
        align: P,
        argType: 'queue',
      });
      break;
    case 'event':
      s = amdCl2Slot({
        name,
        param,
        typeName: kernelArgTypeName(type),
        type,
        role: originRole(p, 'value'),
        offset: at,
        size: P,
        align: P,
        argType: 'clkevent',
      });
      break;
    case 'pipe':
      s = amdCl2Slot({
        name,
        param,
        typeName: kernelArgTypeName(type),
        type,
        role: originRole(p, 'pipe'),
        offset: at,
        size: P,
        align: P,
        argType: 'pipe',
        access: arg.access,
      });
      break;
    case 'pod': {
      if (arg.type.kind === 'record') {
        const structSize = layoutOf(arg.type, AMDGCN).size;
        s = amdCl2Slot({
          name,
          param,
          typeName: kernelArgTypeName(type),
          type,
          role: originRole(p, 'value'),
          offset: at,
          size: P,
          align: P,
          argType: 'structure',
          structSize,
          layout: valueLayout(type, AMDGCN),
        });
        break;
      }
      const w = scalarWord(arg.type);
      if (!w) return noArgType(p, diags);
      const n = w.length === 3 && driver === 'new' ? 4 : w.length;
      s = amdCl2Slot({
        name,
        param,
        typeName: kernelArgTypeName(type),
        type,
        role: originRole(p, 'value'),
        offset: alignTo(offset, w.element),
        size: w.element * n,
        align: w.element,
        argType: w.word,
        layout: valueLayout(type, AMDGCN),
      });
      break;
    }
    case 'opaque':
      return noArgType(p, diags);
    default:
      return assertNever(arg);
  }
  return withOriginDetail(s, p);
}

/** A by-value type CLRX has no argument type for: reported, no slot. */
function noArgType(p: Parameter, diags: DiagnosticBag): undefined {
  diags.report(Messages.clrxNoArgumentType, p.span, [typeToString(p.type)]);
  return undefined;
}
