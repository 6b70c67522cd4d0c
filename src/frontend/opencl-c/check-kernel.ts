/** The rules a kernel's signature must follow (OpenCL C 3.0 §6.9, as clang enforces them). */
import type { DiagnosticBag } from '../../diagnostics/diagnostic.js';
import { Messages } from '../../diagnostics/messages.js';
import type { FunctionInfo } from '../../model/kernel-module.js';
import { typeToString } from '../../types/print.js';
import { canonical } from '../../types/types.js';
import type { Span } from '../../diagnostics/source.js';
import { recordHasPointer } from './type-compat.js';

export interface KernelCheckContext {
  readonly diags: DiagnosticBag;
  readonly clVersion: number;
  /** Extensions enabled by `#pragma OPENCL EXTENSION` where the kernel is declared. */
  readonly enabled: ReadonlySet<string>;
}

/** Scalar parameter types a kernel may take only with __cl_clang_non_portable_kernel_param_types. */
const NOT_PORTABLE_SCALARS: ReadonlySet<string> = new Set(['bool', 'size_t', 'ptrdiff_t', 'intptr_t', 'uintptr_t']);

/** Reports what a kernel's result and parameters may not be; `definition` when it has a body. */
export function checkKernel(ctx: KernelCheckContext, f: FunctionInfo, nameSpan: Span, definition: boolean): void {
  const { diags, clVersion, enabled } = ctx;
  const r = canonical(f.result).type;
  if (!(r.kind === 'scalar' && r.name === 'void')) diags.report(Messages.kernelReturn, nameSpan);
  const nonPortable = enabled.has('__cl_clang_non_portable_kernel_param_types');
  for (const p of f.params) {
    const c = canonical(p.type);
    const t = c.type;
    // A prototype may leave parameters unnamed (abstract declarators); a definition may not.
    if (!p.name && definition) diags.report(Messages.missingParamName, p.span, [p.index]);
    if (t.kind === 'pointer') {
      const pointee = canonical(t.pointee);
      const s = pointee.space;
      if (pointee.type.kind === 'pointer' && !nonPortable && clVersion < 200)
        diags.report(Messages.kernelPointerToPointer, p.span);
      else if (s !== 'global' && s !== 'constant' && s !== 'local') diags.report(Messages.kernelPointerSpace, p.span);
      if (pointee.type.kind === 'opaque' || pointee.type.kind === 'image')
        diags.report(Messages.pointerToOpaque, p.span, [pointee.type.name]);
      continue;
    }
    if (t.kind === 'scalar') {
      if (NOT_PORTABLE_SCALARS.has(t.name) && !nonPortable) {
        diags.report(Messages.kernelParamType, p.span, [typeToString(p.type)]);
      } else if (t.name === 'half' && !enabled.has('cl_khr_fp16')) diags.report(Messages.halfByValue, p.span);
      else if (t.name === 'void') diags.report(Messages.kernelParamType, p.span, ['void']);
      continue;
    }
    if (t.kind === 'vector' && t.element === 'half' && !enabled.has('cl_khr_fp16')) {
      diags.report(Messages.kernelParamType, p.span, [typeToString(p.type)]);
      continue;
    }
    if (t.kind === 'opaque' && t.name !== 'sampler_t' && t.name !== 'queue_t') {
      diags.report(Messages.kernelParamType, p.span, [t.name]);
      continue;
    }
    if (t.kind === 'image' && c.access === 'read_write' && clVersion < 200) {
      diags.report(Messages.readWriteImageVersion, p.span, [t.name]);
      continue;
    }
    if (t.kind === 'record') {
      if (!t.decl.fields) diags.report(Messages.incompleteType, p.span, [typeToString(p.type)]);
      else if (!nonPortable && recordHasPointer(t.decl))
        diags.report(Messages.recordWithPointers, p.span, [t.decl.tagKind]);
      continue;
    }
    if (t.kind === 'array') diags.report(Messages.kernelParamType, p.span, [typeToString(p.type)]);
  }
}
