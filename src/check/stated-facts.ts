// What a compiled kernel records of its source, per kind of binary: `kernarg check` compares a
// source's plan with a binary's only on the facts the binary can state. A code object keeps no
// slot alignment and no struct fields; PTX keeps neither OpenCL C type names nor source names; a
// SPIR-V integer has no sign. A fact the binary cannot state is no difference; a fact it states
// and states otherwise is.
import type { AbiView, Fact, KernelView, SlotView } from '../diff/view.js';

/** The targets a binary reader produces plans for (src/readers/index.ts): the plans `check` compares. */
export type ReadTarget = 'amdhsa' | 'cuda' | 'zebin' | 'opencl' | 'vulkan';

export interface StatedFacts {
  /** Slot properties the binary never records: left out of the comparison. */
  readonly unstated: readonly string[];
  /**
   * The spellings besides its own in which the binary may state a source's slot property, having
   * lost part of it: SPIR-V's OpTypeInt is signless (the reader spells every integer unsigned, so
   * the source's `int` agrees with the binary's `uint`), and clang's SPIR-V backend writes a
   * pointer whose pointee it cannot infer from the body as `i8*` (`uchar*`).
   */
  readonly weaker: (prop: string, source: Fact) => readonly Fact[];
  /**
   * Whether the binary names the source's parameters: 'never' (PTX names them `<kernel>_param_<i>`),
   * or 'unless-positional' (a code object without -cl-kernel-arg-info, a SPIR-V module without
   * OpName, a zebin without kernel_misc_info: the reader names them `arg<i>`).
   */
  readonly names: 'never' | 'unless-positional';
  /**
   * Slot properties stated only where the binary names its arguments: clang's OpenCL SPIR-V,
   * without llvm-spirv's `kernel_arg_type` strings and OpName of parameters, spells a type from
   * LLVM's type (a typedef's target, and a struct by LLVM's name for it, which identical structs
   * share), not as the source does.
   */
  readonly withNames: readonly string[];
  /** Module facts the binary never records (derived by kernarg from the source's types, not read). */
  readonly unstatedModuleFacts: (fact: string) => boolean;
  /** Slots of the source's plan the binary has no entry for. */
  readonly unstatedSlot: (slot: SlotView) => boolean;
  /**
   * Whether an optimizing compile may drop implicit slots the kernel never reads (clang above
   * -O0 removes unused hidden arguments; kernarg predicts -O0's set). When the binary lacks some,
   * those are no difference, and nor is the segment's size or alignment they ended.
   */
  readonly droppedImplicit: boolean;
}

const none = () => false;
const exact = (): readonly Fact[] => [];

/** OpenCL SPIR-V: signless integers; opaque pointers as `uchar*`; records by their tag. */
function spirvSpellings(prop: string, v: Fact): readonly Fact[] {
  if (prop === 'layout' || prop === 'vecTypeHint') return [signless(v)];
  if (prop !== 'typeName') return [];
  if (typeof v !== 'string') return [];
  if (v.endsWith('*')) return [signless(v), 'uchar*'];
  // A typedef'd record is named by its tag in OpName: the source's `S` is the module's `struct S` (or `union S`).
  return /^[A-Za-z_]\w*$/.test(v) ? [signless(v), `struct ${v}`, `union ${v}`] : [signless(v)];
}

/**
 * One row per kind of plan a reader makes; each row says why. The existing round-trip tests
 * compare the same fields (test/support/reader-roundtrip.ts, test/oracle/ptx-reader-clang.test.ts,
 * test/oracle/spirv-reader-clang.test.ts).
 */
export const STATED_FACTS = {
  // NT_AMDGPU_METADATA has offsets, sizes, value kinds, type names, address spaces, access and
  // pointee alignment; no slot alignment, and a by-value struct only as its type name and size.
  amdhsa: {
    unstated: ['align', 'layout'],
    weaker: exact,
    names: 'unless-positional',
    withNames: [],
    unstatedModuleFacts: none,
    unstatedSlot: none,
    droppedImplicit: true,
  },
  // A `.param` list has offsets, sizes, alignment, PTX types and pointer spaces: no OpenCL C type
  // names, and values only as PTX's unsigned bit types or byte arrays.
  cuda: {
    unstated: ['typeName', 'layout'],
    weaker: exact,
    names: 'never',
    withNames: [],
    unstatedModuleFacts: none,
    unstatedSlot: none,
    droppedImplicit: false,
  },
  // `.ze_info` has every payload field and (with kernel_misc_info) names and type names; a value's
  // layout only as its size. A `queue_t` has no payload entry (arg_type none: `.ze_info` lists nothing for it).
  zebin: {
    unstated: ['layout'],
    weaker: exact,
    names: 'unless-positional',
    withNames: [],
    unstatedModuleFacts: none,
    unstatedSlot: (s) => s.props.kind === 'none',
    droppedImplicit: false,
  },
  // OpEntryPoint Kernel's parameters: kinds, address spaces, access, sizes, and the OpenCL C type
  // names when the module carries them (ocloc's does); else signless spellings.
  opencl: {
    unstated: [],
    weaker: spirvSpellings,
    names: 'unless-positional',
    withNames: ['typeName'],
    unstatedModuleFacts: none,
    unstatedSlot: none,
    droppedImplicit: false,
  },
  // A shader's descriptors, push constants and spec constants are stated; the Vulkan features and
  // extensions kernarg lists are derived from the types, not declared in the module.
  vulkan: {
    unstated: [],
    weaker: exact,
    names: 'unless-positional',
    withNames: [],
    unstatedModuleFacts: (f) => f.startsWith('vulkanFeature ') || f.startsWith('vulkanExtension '),
    unstatedSlot: none,
    droppedImplicit: false,
  },
} as const satisfies Record<ReadTarget, StatedFacts>;

export const isReadTarget = (t: string): t is ReadTarget => Object.hasOwn(STATED_FACTS, t);

/**
 * An OpenCL C type spelling without signs, as SPIR-V states it: `int4*` → `uint4*`, `struct{0:long}` →
 * `struct{0:ulong}`.
 */
export function signless(v: Fact): Fact {
  return typeof v === 'string' ? v.replace(/(?<![\w])(?:signed\s+)?(char|short|int|long)(?=\d|\b)/g, 'u$1') : v;
}

const positional = (k: KernelView) => k.slots.every((s) => s.param === null || s.name === `arg${s.param}`);

/** Each explicit slot keyed by its parameter and its rank among that parameter's slots. */
function explicitKeys(k: KernelView): Map<SlotView, string> {
  const seen = new Map<number, number>();
  const keys = new Map<SlotView, string>();
  for (const s of k.slots) {
    if (s.param === null) continue;
    const n = seen.get(s.param) ?? 0;
    seen.set(s.param, n + 1);
    keys.set(s, `${s.param}#${n}`);
  }
  return keys;
}

/**
 * The binary's kernel with the source's names for its explicit slots (the binary names none of
 * its own), so that the ABI diff pairs slots as they are passed: by parameter.
 */
function withSourceNames(bin: KernelView, src: KernelView): KernelView {
  const names = new Map([...explicitKeys(src)].map(([s, key]) => [key, s.name]));
  const keys = explicitKeys(bin);
  return {
    ...bin,
    slots: bin.slots.map((s) => {
      const n = names.get(keys.get(s) ?? '');
      return n === undefined ? s : { ...s, name: n };
    }),
  };
}

/**
 * The source's slot with the properties the binary cannot state taken out, and the signless ones as the binary spells
 * them.
 */
function sourceSlot(s: SlotView, unstated: readonly string[]): SlotView {
  const props: Record<string, Fact> = {};
  for (const [p, v] of Object.entries(s.props)) if (!unstated.includes(p)) props[p] = v;
  return { ...s, props };
}

function binarySlot(s: SlotView, src: SlotView | undefined, rule: StatedFacts, unstated: readonly string[]): SlotView {
  const props: Record<string, Fact> = {};
  for (const [p, v] of Object.entries(s.props)) {
    if (unstated.includes(p)) continue;
    // The binary's weaker spelling of the source's fact agrees with it: keep the source's words in the report.
    props[p] =
      src && v !== src.props[p] && rule.weaker(p, src.props[p] ?? null).includes(v) ? (src.props[p] ?? null) : v;
  }
  return { ...s, props };
}

/**
 * The two views `check` hands to the ABI diff: the source's and the binary's, each reduced to
 * what the binary states. Kernels pair by name; where a kernel is on one side only, the unpaired
 * kernels of each side pair in order for naming alone, so a renamed kernel shows as renamed.
 */
export function statedViews(source: AbiView, binary: AbiView): { source: AbiView; binary: AbiView } {
  if (!isReadTarget(binary.target)) throw new RangeError(`no binary reader makes ${binary.target} plans`);
  const rule: StatedFacts = STATED_FACTS[binary.target];
  const srcByName = new Map(source.kernels.map((k) => [k.name, k]));
  const binNames = new Set(binary.kernels.map((k) => k.name));
  const unpairedSrc = source.kernels.filter((k) => !binNames.has(k.name));
  let next = 0;
  /** Each binary kernel's source kernel: by name, else the next unpaired one. */
  const pairs = binary.kernels.map((b) => [b, srcByName.get(b.name) ?? unpairedSrc[next++]] as const);
  // A source kernel's slots as its binary kernel states them (that kernel may name its arguments or not).
  const unstatedFor = (b: KernelView | undefined) =>
    b && positional(b) ? [...rule.unstated, ...rule.withNames] : rule.unstated;
  const binOf = new Map(pairs.filter(([, src]) => src).map(([b, src]) => [src!, b]));
  const srcSlots = new Map<KernelView, SlotView[]>(
    source.kernels.map((k) => [
      k,
      k.slots.filter((s) => !rule.unstatedSlot(s)).map((s) => sourceSlot(s, unstatedFor(binOf.get(k)))),
    ]),
  );
  const srcKernels = new Map<KernelView, KernelView>(source.kernels.map((k) => [k, { ...k, slots: srcSlots.get(k)! }]));
  const kernels = pairs.map(([b, src]): KernelView => {
    if (!src) return { ...b, slots: b.slots.map((s) => binarySlot(s, undefined, rule, unstatedFor(b))) };
    const named = rule.names === 'never' || positional(b) ? withSourceNames(b, src) : b;
    const bySlotName = new Map(src.slots.map((s) => [s.name, s]));
    const facts: Record<string, Fact> = {};
    for (const [f, v] of Object.entries(named.facts))
      facts[f] =
        v !== (src.facts[f] ?? null) && rule.weaker(f, src.facts[f] ?? null).includes(v) ? (src.facts[f] ?? null) : v;
    const bin: KernelView = {
      ...named,
      facts,
      slots: named.slots.map((s) => binarySlot(s, bySlotName.get(s.name), rule, unstatedFor(b))),
    };
    const kept = new Set(bin.slots.filter((s) => s.param === null).map((s) => s.name));
    const slots = srcSlots.get(src)!;
    if (!rule.droppedImplicit || slots.every((s) => s.param !== null || kept.has(s.name))) return bin;
    // An optimized binary: the implicit slots it dropped, and the segment extent they set, are not compared.
    const extent = (f: Readonly<Record<string, Fact>>) =>
      Object.fromEntries(Object.entries(f).filter(([name]) => name !== 'segmentSize' && name !== 'segmentAlign'));
    srcKernels.set(src, {
      ...src,
      facts: extent(src.facts),
      slots: slots.filter((s) => s.param !== null || kept.has(s.name)),
    });
    return { ...bin, facts: extent(bin.facts) };
  });
  const facts = (f: Readonly<Record<string, Fact>>) =>
    Object.fromEntries(Object.entries(f).filter(([k]) => !rule.unstatedModuleFacts(k)));
  return {
    source: { ...source, facts: facts(source.facts), kernels: source.kernels.map((k) => srcKernels.get(k)!) },
    binary: { ...binary, facts: facts(binary.facts), kernels },
  };
}
