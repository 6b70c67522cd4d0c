// Kernels of one shape lowered once (issue 30): a file of very many small kernels mostly repeats a few signatures, and
// a kernel whose plan can depend only on its parameters (no calls, no module variables named, no attributes, no local
// variables, called by nobody) has the plan of any earlier kernel with the same parameters, its name apart. The
// kernel's plan is then that plan's fields under its own name, sharing the slot objects, so each renderer's caches
// keyed by a slot list (json.ts, the tables) find the text they made for the first kernel of that shape.
import type { DiagnosticBag } from '../diagnostics/diagnostic.js';
import type { FunctionInfo, KernelModule } from '../model/kernel-module.js';

/**
 * Slot lists a memo gave to more than one kernel: a renderer keeps the text it made of one (the list's identity is the
 * key), and only of these, so a file whose kernels all differ costs it one lookup a kernel.
 */
const repeated = new WeakSet<readonly object[]>();

/** Whether kernels share this very slot list (a memo's plan given again under another name). */
export function repeatedSlots(args: readonly object[]): boolean {
  return repeated.has(args);
}

/**
 * A renderer's texts of shared slot lists: `make(args)` once per list kernels share, each time for any other list
 * (`make` a function of the list alone, made once, so a call allocates nothing). A text may be in parts (`T`), for a
 * renderer that puts each kernel's own words between them (cuda's PTX names).
 */
export class SlotListTexts<S extends object, T = string> {
  private readonly texts = new WeakMap<readonly S[], T>();

  constructor(private readonly make: (args: readonly S[]) => T) {}

  text(args: readonly S[]): T {
    if (!repeated.has(args)) return this.make(args);
    let text = this.texts.get(args);
    if (text === undefined) this.texts.set(args, (text = this.make(args)));
    return text;
  }
}

/** The trie's leaf key: a plan sits under it, in the node its parameters' path ends at. */
const PLAN = Symbol('plan');

/** One node of the trie: the next key (a type object, a parameter name, a count) → the next node. */
type Node = Map<unknown, Node | object>;

/**
 * The most shapes a memo keeps: a file whose kernels all differ (parameter names of their own) stops remembering once
 * it has this many, so the memo holds a few MiB at most and never the whole plan.
 */
export const MEMO_SHAPES = 1 << 12;

/** Off only inside `withoutShapeMemo`. */
let memoOn = true;

/**
 * `fn()` with every memo off, each kernel lowered and rendered on its own: what the memo's output is compared with
 * (test/kernel-shape-memo.test.ts), and a baseline to measure it against.
 */
export function withoutShapeMemo<T>(fn: () => T): T {
  const was = memoOn;
  memoOn = false;
  try {
    return fn();
  } finally {
    memoOn = was;
  }
}

/**
 * The names some function of the module calls, and those of the functions that call any: a kernel among them is not
 * memoized, as what the call graph says of a function is said by its name (a module built by hand may hold two
 * functions of one name, one with calls). Once per module (a lowering's passes ask again): a few names, where the
 * functions are 190,000.
 */
const calledByModule = new WeakMap<KernelModule, ReadonlySet<string>>();
function calledNames(module: KernelModule): ReadonlySet<string> {
  let names = calledByModule.get(module) as Set<string> | undefined;
  if (names) return names;
  names = new Set<string>();
  for (const f of module.functions) {
    if (f.calls.length) names.add(f.name);
    for (const c of f.calls) names.add(c.name);
  }
  calledByModule.set(module, names);
  return names;
}

/**
 * Whether a kernel's plan is its parameters' alone: nothing it calls, names, declares or is given as an attribute, no
 * derived parameters (tinytc's), and no caller.
 */
function parametersOnly(k: FunctionInfo, called: ReadonlySet<string>): boolean {
  const a = k.attributes;
  return (
    k.calls.length === 0 &&
    k.uses.length === 0 &&
    (k.callArgs?.length ?? 0) === 0 &&
    (k.localVariables?.length ?? 0) === 0 &&
    a.reqdWorkGroupSize === undefined &&
    a.workGroupSizeHint === undefined &&
    a.vecTypeHint === undefined &&
    a.intelReqdSubGroupSize === undefined &&
    !called.has(k.name) &&
    !derived(k)
  );
}

/** Whether a parameter is derived from a logical argument (tinytc's calling convention). */
function derived(k: FunctionInfo): boolean {
  for (let i = 0; i < k.params.length; i++) if (k.params[i].origin !== undefined) return true;
  return false;
}

/** Whether two kernels' trie paths are the same: their keys, compared as the trie's maps compare them. */
function sameKeys(a: FunctionInfo, b: FunctionInfo): boolean {
  if (a.result !== b.result || a.defined !== b.defined || a.params.length !== b.params.length) return false;
  for (let i = 0; i < a.params.length; i++) {
    const p = a.params[i];
    const q = b.params[i];
    if (p.type !== q.type || p.name !== q.name) return false;
  }
  return true;
}

/** What a bag has been told so far (a bag past its limit counts errors it no longer keeps). */
const reportedTo = (diags: DiagnosticBag | undefined) => (diags ? diags.items.length + diags.errors : 0);

/**
 * The plans of one pass over a module's kernels, each kernel's made once per shape: the node a shape's path ends at,
 * found by identity of the (interned) types and equality of the names, so a warm lookup allocates nothing.
 */
export class KernelShapeMemo<K extends { readonly name: string }> {
  private readonly root: Node = new Map();
  private shapes = 0;
  private readonly called: ReadonlySet<string>;
  /** The last kernel whose leaf was found or made, and that leaf: the next kernel is mostly of its shape. */
  private last: FunctionInfo | undefined;
  private lastLeaf: Node | undefined;

  /**
   * `keeps(plan)`: whether a plan may be given to later kernels of its shape, for a target where some plans depend on
   * the kernels before them too (vulkan's local arguments take the next spec ids); a plan it refuses is made anew for
   * every kernel of that shape, as a shape the memo never saw.
   */
  constructor(
    module: KernelModule,
    private readonly keeps: (plan: K) => boolean = () => true,
  ) {
    this.called = calledNames(module);
  }

  /** The leaf node of `k`'s shape, made where `create`; undefined for a kernel not memoized or a shape not seen. */
  private leaf(k: FunctionInfo, create: boolean): Node | undefined {
    if (!parametersOnly(k, this.called)) return undefined;
    // The path's keys compared with the last kernel's, where a walk would look each up (a file of very many kernels
    // mostly repeats the kernel before; a leaf once made stays).
    if (this.last !== undefined && sameKeys(k, this.last)) return this.lastLeaf;
    let node = this.step(this.root, k.result, create);
    if (node) node = this.step(node, k.defined, create);
    if (node) node = this.step(node, k.params.length, create);
    for (let i = 0; node && i < k.params.length; i++) {
      const p = k.params[i];
      node = this.step(node, p.type, create);
      if (node) node = this.step(node, p.name, create);
    }
    if (node) {
      this.last = k;
      this.lastLeaf = node;
    }
    return node;
  }

  private step(node: Node, key: unknown, create: boolean): Node | undefined {
    const next = node.get(key) as Node | undefined;
    if (next || !create) return next;
    const made: Node = new Map();
    node.set(key, made);
    return made;
  }

  /**
   * `make(k)`, or the plan of an earlier kernel of `k`'s shape under `k`'s name. A plan whose making reported a
   * diagnostic is not kept (each kernel reports its own, at its own place).
   *
   * A shape's plan is kept from its second kernel on (its first leaves the trie's path): in a file whose kernels all
   * differ, no plan outlives its kernel. Keeping the first kernels' plans of every shape (up to MEMO_SHAPES) made V8
   * see most objects of the lowering's allocation sites survive a young-generation collection and allocate every later
   * one straight into the old generation (pretenuring), where they stayed until a full collection: 190,000 kernels of
   * parameters named each their own took cuda's JSON to 721 MB, zebin's to 786 MB.
   */
  plan(k: FunctionInfo, make: (k: FunctionInfo) => K, diags?: DiagnosticBag): K;
  /** A kernel `make` refuses (undefined, reported) has no plan to keep. */
  plan(k: FunctionInfo, make: (k: FunctionInfo) => K | undefined, diags?: DiagnosticBag): K | undefined;
  plan(k: FunctionInfo, make: (k: FunctionInfo) => K | undefined, diags?: DiagnosticBag): K | undefined {
    if (!memoOn) return make(k);
    const seen = this.leaf(k, false);
    const found = seen?.get(PLAN) as K | undefined;
    if (found) {
      if (found.name === k.name) return found;
      const args = (found as { readonly args?: readonly object[] }).args;
      if (args) repeated.add(args);
      return { ...found, name: k.name };
    }
    const reported = reportedTo(diags);
    const made = make(k);
    if (made === undefined || reportedTo(diags) !== reported || !this.keeps(made)) return made;
    if (seen) seen.set(PLAN, made);
    else if (this.shapes < MEMO_SHAPES && this.leaf(k, true)) this.shapes++;
    return made;
  }
}
