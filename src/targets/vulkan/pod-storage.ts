// POD arguments and 8/16-bit storage: the scalar types a type holds, where a kernel's PODs go
// (push constants, UBO, SSBO), store sizes, std140 problems, and the storage-class checks.
import { alignTo } from '../../layout/align.js';
import type { DiagnosticBag } from '../../diagnostics/diagnostic.js';
import { type Message, Messages } from '../../diagnostics/messages.js';
import type { Span } from '../../diagnostics/source.js';
import { DATA_LAYOUTS } from '../../layout/data-layout.js';
import { layoutOf, recordLayout } from '../../layout/layout.js';
import { type FunctionInfo, type KernelModule, kernelsOf } from '../../model/kernel-module.js';
import { type QualType, type Type, canonical, containsType, type RecordDecl } from '../../types/types.js';
import type { StorageClassName, VulkanTargetOptions } from './plan.js';
import { classifyArg } from '../../model/arg-class.js';

const EMPTY: ReadonlySet<string> = new Set();
const leafScalars = new Map<string, ReadonlySet<string>>();
const recordScalars = new WeakMap<RecordDecl, ReadonlySet<string>>();
const leafSet = (name: string) => {
  let s = leafScalars.get(name);
  if (!s) leafScalars.set(name, (s = new Set([name])));
  return s;
};

/**
 * The scalar types a type holds, through arrays, pointers and record fields. The sets are shared
 * and read-only: one per scalar name, one per record declaration (computed once, from the top).
 */
export function scalarsIn(t: QualType | Type, seen?: Set<number>): ReadonlySet<string> {
  // A Type is canonical already unless it is a typedef (only that case needs a QualType made).
  const c = 'kind' in t ? (t.kind === 'typedef' ? canonical({ type: t }).type : t) : canonical(t).type;
  switch (c.kind) {
    case 'scalar':
      return leafSet(c.name);
    case 'vector':
      return leafSet(c.element);
    case 'enum':
      return leafSet(c.decl.underlying);
    case 'array':
      return scalarsIn(c.element, seen);
    case 'pointer':
      return scalarsIn(c.pointee, seen);
    case 'record': {
      const cached = recordScalars.get(c.decl);
      if (cached) return cached;
      if (seen?.has(c.decl.id)) return EMPTY;
      // A record reached again through its own fields adds nothing; only a walk from the top is complete enough to
      // keep.
      const top = seen === undefined;
      const inner = seen ?? new Set<number>();
      inner.add(c.decl.id);
      const out = new Set<string>();
      for (const f of c.decl.fields ?? []) for (const s of scalarsIn(f.type, inner)) out.add(s);
      if (top) recordScalars.set(c.decl, out);
      return out;
    }
    default:
      return EMPTY;
  }
}
export const has8 = (s: ReadonlySet<string>) => s.has('char') || s.has('uchar') || s.has('bool');
export const has16 = (s: ReadonlySet<string>) => s.has('short') || s.has('ushort') || s.has('half');

/** Store size: the bytes a value occupies without its tail padding to alignment (float3 → 12). */
export function storeSize(t: QualType, dl: (typeof DATA_LAYOUTS)[keyof typeof DATA_LAYOUTS]): number {
  const c = canonical(t).type;
  if (c.kind === 'vector' && c.length === 3) return 3 * layoutOf({ kind: 'scalar', name: c.element }, dl).size;
  return layoutOf(c, dl).size;
}

export function choosePlacement(
  pods: readonly FunctionInfo['params'][number][],
  o: VulkanTargetOptions,
  cluster: boolean,
  maxPush: number,
  modulePush: boolean,
  dl: (typeof DATA_LAYOUTS)[keyof typeof DATA_LAYOUTS],
  globalPodBase = 0,
): 'ssbo' | 'ubo' | 'pushconstant' | 'global-pushconstant' {
  if (o.podPushConstant) return 'pushconstant';
  if (o.podUbo) return 'ubo';
  if (o.podArgs !== 'auto' && !o.physicalStorageBuffers) return 'ssbo';
  // Today's clspv: push constants when they fit, then a UBO when its layout is valid, else an SSBO.
  const no8 = new Set(o.no8bitStorage ?? []);
  const no16 = new Set(o.no16bitStorage ?? []);
  const scal = new Set(
    pods.filter((p) => canonical(p.type).type.kind !== 'pointer').flatMap((p) => [...scalarsIn(p.type)]),
  );
  const allowed = (where: StorageClassName) => !(has8(scal) && no8.has(where)) && !(has16(scal) && no16.has(where));
  let end = 0;
  for (const p of pods) {
    const l = layoutOf(p.type, dl);
    end = alignTo(end, l.align) + l.size;
  }
  const arrays = pods.some((p) => containsType(p.type, (x) => x.kind === 'array'));
  if (cluster && alignTo(end, 4) <= maxPush && !modulePush && !arrays && allowed('pushconstant')) return 'pushconstant';
  // AutoPodArgsPass's second choice: the module's push constants plus this kernel's PODs fit the limit.
  if (cluster && globalPodBase + alignTo(end, 4) <= maxPush) return 'global-pushconstant';
  const uboLayoutOk = pods.every((p) => uboProblem(p.type, dl) === undefined);
  if (allowed('ubo') && uboLayoutOk) return 'ubo';
  return 'ssbo';
}

/** The first std140 rule a type breaks in a uniform buffer, in clspv's words, or undefined. */
export function uboProblem(t: QualType, dl: (typeof DATA_LAYOUTS)[keyof typeof DATA_LAYOUTS]): Message | undefined {
  const c = canonical(t).type;
  if (c.kind === 'array') {
    const e = layoutOf(c.element, dl);
    if (e.size % alignTo(e.align, 16) !== 0) return Messages.vkUboArrayStride;
    return uboProblem(c.element, dl);
  }
  if (c.kind !== 'record') return undefined;
  for (const f of recordLayout(c.decl, dl).fields) {
    const fc = canonical(f.type).type;
    if (fc.kind === 'array' && f.offset % 16 !== 0) return Messages.vkUboArrayAlign;
    if (fc.kind === 'record' && f.offset % 16 !== 0) return Messages.vkUboStructAlign;
    const inner = uboProblem(f.type, dl);
    if (inner) return inner;
  }
  return undefined;
}

/**
 * Whether the options refuse 8- or 16-bit types in some storage class (without them `checkSmallStorage` has nothing to
 * check).
 */
export const smallStorageLimited = (o: VulkanTargetOptions): boolean =>
  (o.no8bitStorage?.length ?? 0) > 0 || (o.no16bitStorage?.length ?? 0) > 0;

export function checkSmallStorage(
  pods: readonly FunctionInfo['params'][number][],
  placement: 'ssbo' | 'ubo' | 'pushconstant' | 'none',
  o: VulkanTargetOptions,
  err: (span: Span | undefined, message: Message, args?: readonly (string | number)[]) => void,
): void {
  if (placement === 'none' || (!o.no8bitStorage?.length && !o.no16bitStorage?.length)) return;
  const name = { ssbo: 'SSBOs', ubo: 'UBOs', pushconstant: 'push constants' }[placement];
  for (const p of pods) {
    const s = scalarsIn(p.type);
    if (has8(s) && (o.no8bitStorage ?? []).includes(placement)) err(p.span, Messages.vkNo8bitStorage, [name]);
    if (has16(s) && (o.no16bitStorage ?? []).includes(placement)) err(p.span, Messages.vkNo16bitStorage, [name]);
  }
}

/** Buffer arguments also carry 8/16-bit types through the storage interface. */
export function checkBufferStorage(module: KernelModule, o: VulkanTargetOptions, diags: DiagnosticBag): void {
  // Without these options no buffer can be refused.
  if (!o.no8bitStorage?.length && !o.no16bitStorage?.length && !o.constantArgsUbo) return;
  for (const k of kernelsOf(module)) {
    for (const p of k.params) {
      const arg = classifyArg(p.type);
      if (arg.kind !== 'buffer') continue;
      const where: StorageClassName = arg.space === 'constant' && o.constantArgsUbo ? 'ubo' : 'ssbo';
      const s = scalarsIn(arg.pointee);
      const name = where === 'ubo' ? 'UBOs' : 'SSBOs';
      if (has8(s) && (o.no8bitStorage ?? []).includes(where)) diags.report(Messages.vkNo8bitStorage, p.span, [name]);
      if (has16(s) && (o.no16bitStorage ?? []).includes(where)) diags.report(Messages.vkNo16bitStorage, p.span, [name]);
      if (where === 'ubo') {
        const problem = uboProblem(arg.pointee, DATA_LAYOUTS[o.arch ?? 'spir']);
        if (problem) diags.report(problem, p.span);
      }
    }
  }
}
