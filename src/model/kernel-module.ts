import type { Span } from '../diagnostics/source.js';
import type { DataLayout } from '../layout/data-layout.js';
import type { QualType, RecordDecl } from '../types/types.js';

/** The attributes OpenCL C lets a kernel carry. */
export interface KernelAttributes {
  reqdWorkGroupSize?: [number, number, number];
  workGroupSizeHint?: [number, number, number];
  vecTypeHint?: QualType;
  intelReqdSubGroupSize?: number;
}

/** For arguments a calling convention derives (tinytc): which logical argument and which part of it. */
export interface ParamOrigin {
  /** The logical (tinytc) argument's name and index. */
  readonly arg: string;
  readonly argIndex: number;
  readonly role: 'data' | 'shape' | 'stride' | 'offset' | 'value' | 'size';
  /** The mode of a shape or stride entry. */
  readonly dim?: number;
  /** Group arguments: one entry per group member (a table in global memory). */
  readonly perMember?: boolean;
}

export interface Parameter {
  readonly index: number;
  readonly name: string;
  /** The declared type, address space and access qualifier included. */
  readonly type: QualType;
  readonly span: Span;
  readonly origin?: ParamOrigin;
}

export interface CallSite {
  readonly name: string;
  readonly span: Span;
}

/** A call of one of the builtins whose arguments an ABI depends on (`CALLS_WITH_ARGS`), every occurrence in order. */
export interface CallArgs {
  readonly name: string;
  readonly span: Span;
  /**
   * Each argument's token texts joined by spaces (its first 64 tokens, then ' …': the text is compared with parameter
   * names); `string`: the bytes of an argument made only of string literals.
   */
  readonly args: readonly { readonly text: string; readonly string?: string }[];
}

/**
 * A variable of the `local` address space declared at a kernel's outermost scope (OpenCL C 6.7.2):
 * one per work-group. clspv makes each a Workgroup variable of its own and reflects its size
 * (WorkgroupVariableSize).
 */
export interface LocalVariable {
  readonly name: string;
  /** The declared type (`local` included). */
  readonly type: QualType;
  /** The innermost element of an array (the type itself otherwise). */
  readonly elementType: QualType;
  /** How many elements: the product of the array's lengths; null when the variable is no array. */
  readonly arraySize: number | null;
  /** The body names it after its declaration (clspv's optimizer drops one nothing refers to). */
  readonly used: boolean;
  readonly span: Span;
}

export interface FunctionInfo {
  readonly name: string;
  readonly isKernel: boolean;
  readonly result: QualType;
  readonly params: readonly Parameter[];
  readonly attributes: KernelAttributes;
  /** Has a body in this module. */
  readonly defined: boolean;
  /** Functions named in call position in the body, in order, duplicates kept once. */
  readonly calls: readonly CallSite[];
  /** Module-scope variables the body names. */
  readonly uses: readonly string[];
  /**
   * Calls of printf, the image channel getters and image reads, with their arguments, in body
   * order. The OpenCL C frontend always sets it (empty when there are none), so its functions have
   * one shape: optional for modules built by hand or by other frontends.
   */
  readonly callArgs?: readonly CallArgs[];
  /**
   * `local` variables declared at the body's outermost scope, in order; set by the OpenCL C frontend like `callArgs`.
   */
  readonly localVariables?: readonly LocalVariable[];
  readonly span: Span;
}

/** A program-scope variable with its initial bytes under the module's data layout. */
export interface ModuleVariable {
  readonly name: string;
  readonly type: QualType;
  readonly space: 'constant' | 'global';
  /** Little-endian bytes of the initializer, padding zero. */
  readonly bytes: Uint8Array;
  readonly span: Span;
}

/** A module-scope `constant sampler_t s = CLK_… | …;`. */
export interface LiteralSampler {
  readonly name: string;
  readonly value: number;
  readonly span: Span;
}

export interface ExtensionState {
  readonly name: string;
  readonly enabled: boolean;
  readonly span: Span;
}

/** The target-neutral kernel interface of one translation unit. */
export interface KernelModule {
  readonly language: 'opencl-c' | 'tinytc';
  readonly path: string;
  /** OpenCL C version number: 100, 110, 120, 200 or 300. */
  readonly clVersion: number;
  /** The data layout `sizeof` and initializers were evaluated with. */
  readonly layout: DataLayout;
  readonly extensions: readonly ExtensionState[];
  /** Every function declared or defined, in order of first declaration. */
  readonly functions: readonly FunctionInfo[];
  readonly variables: readonly ModuleVariable[];
  readonly samplers: readonly LiteralSampler[];
  readonly records: readonly RecordDecl[];
}

/**
 * The module's kernels, in order. Kept per function list (and its length) once found: several steps of one lowering
 * ask, and a file of 190,000 kernels filtered and copied its list for each of them (issue 30). A list is not changed
 * once its frontend has returned it; the length check catches one still being built. Counted first and filled into
 * an array of that length: `filter` grows its array a slot at a time, copying 190,000 kernels' worth several times
 * over (about three times the cost).
 */
export function kernelsOf(m: KernelModule): readonly FunctionInfo[] {
  const fs = m.functions;
  const kept = kernelLists.get(fs);
  if (kept && kept.length === fs.length) return kept.kernels;
  let n = 0;
  for (let i = 0; i < fs.length; i++) if (fs[i].isKernel) n++;
  const kernels = new Array<FunctionInfo>(n);
  for (let i = 0, j = 0; j < n; i++) if (fs[i].isKernel) kernels[j++] = fs[i];
  kernelLists.set(fs, { length: fs.length, kernels });
  return kernels;
}

const kernelLists = new WeakMap<readonly FunctionInfo[], { length: number; kernels: readonly FunctionInfo[] }>();

/** Modules no two of whose functions share a name (`markNamedOnce`). */
const namedOnce = new WeakSet<KernelModule>();

/**
 * Records that no two of `m`'s functions share a name: what the OpenCL C frontend's modules hold (its checker keeps
 * one function per ordinary identifier, a redeclaration replacing the entry in place), marked as `lower` compiles one.
 * A writer that numbers something per function (LLVM IR's legacy kernel nodes) then needs no map of 190,000 names to
 * find a name met twice; a module built otherwise is looked at name by name.
 */
export function markNamedOnce(m: KernelModule): void {
  namedOnce.add(m);
}

/** Whether `m`'s functions are known to be named each once (`markNamedOnce`). */
export function isNamedOnce(m: KernelModule): boolean {
  return namedOnce.has(m);
}
