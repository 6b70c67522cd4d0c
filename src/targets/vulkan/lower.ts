import { alignTo } from '../../layout/align.js';
import type { DiagnosticBag } from '../../diagnostics/diagnostic.js';
import { type Message, Messages } from '../../diagnostics/messages.js';
import type { Span } from '../../diagnostics/source.js';
import { DATA_LAYOUTS } from '../../layout/data-layout.js';
import { layoutOf } from '../../layout/layout.js';
import { type FunctionInfo, type KernelModule, kernelsOf } from '../../model/kernel-module.js';
import { someKernelCalls } from '../../abi/call-graph.js';
import { KernelShapeMemo } from '../../abi/kernel-shape-memo.js';
import type { Draft } from '../../abi/origin.js';
import {
  checkPhysicalPointerOptions,
  imageMetadataBase,
  podBlockEnd,
  printfPlan,
  setImageMetadata,
  clspvModuleParts,
  withPrintfFlag,
} from './module-parts.js';
import { checkBufferStorage } from './pod-storage.js';
import { KernelPlanner, type PlannerState } from './kernel-planner.js';
import { checkCalls, checkParams, checkProgramScope } from './module-checks.js';
import { vulkanRequirements } from './requirements.js';
import {
  DEFAULT_MAX_PUSH_CONSTANT_SIZE,
  type VulkanKernelPlan,
  type VulkanPlan,
  type VulkanTargetOptions,
} from './plan.js';
import { type ArgClass, classifyArg } from '../../model/arg-class.js';
import { workgroupVariables } from './workgroup-variables.js';
import { hasAddressTable } from './address-tables.js';

export type * from './plan.js';
export { checkBufferStorage, uboProblem } from './pod-storage.js';

/** The samplerExpr text clspv prints for a mask: address, filter, normalized. */
export function samplerExpr(mask: number): string {
  const address =
    (
      {
        0: 'CLK_ADDRESS_NONE',
        2: 'CLK_ADDRESS_CLAMP_TO_EDGE',
        4: 'CLK_ADDRESS_CLAMP',
        6: 'CLK_ADDRESS_REPEAT',
        8: 'CLK_ADDRESS_MIRRORED_REPEAT',
      } as Record<number, string>
    )[mask & 0x0e] ?? 'CLK_ADDRESS_NONE';
  const filter = (mask & 0x30) === 0x20 ? 'CLK_FILTER_LINEAR' : 'CLK_FILTER_NEAREST';
  const norm = mask & 1 ? 'CLK_NORMALIZED_COORDS_TRUE' : 'CLK_NORMALIZED_COORDS_FALSE';
  return `${address}|${filter}|${norm}`;
}

/**
 * Literal samplers: module-scope samplers some function uses, unique by value, declaration order, after the sampler
 * map's.
 */
function literalSamplers(module: KernelModule, o: VulkanTargetOptions): VulkanPlan['literalSamplers'][number][] {
  const literal: VulkanPlan['literalSamplers'][number][] = [];
  const used = new Set<string>();
  for (const f of module.functions) for (const u of f.uses) used.add(u);
  const masks = [...(o.samplerMap ?? [])];
  for (const s of module.samplers) if (used.has(s.name) && !masks.includes(s.value)) masks.push(s.value);
  masks.forEach((mask, binding) => {
    const named = module.samplers.find((s) => s.value === mask && used.has(s.name));
    literal.push({ mask, expr: samplerExpr(mask), descriptorSet: 0, binding, ...(named ? { name: named.name } : {}) });
  });
  return literal;
}

/**
 * The kernels of one shape planned once (src/abi/kernel-shape-memo.ts), where a kernel's plan is its shape's whatever
 * came before it: not with --distinct-kernel-descriptor-sets (a set per kernel, named after it), and no plan with a
 * local argument (its spec id is the next one). The rest of what a plan takes from the kernels before it is the same
 * for every kernel of a shape from its first on: the shared set is numbered once (by the first kernel that binds
 * anything), --binding-scheme=by-position's bindings are numbered once per position and never renumbered, and the
 * requirements gathered from a shape's slots (scalar types, images, buffers) are those its first kernel added. A
 * memoized kernel calls nothing, so it reads no image metadata (a name's) either.
 */
function vulkanShapeMemo(module: KernelModule, o: VulkanTargetOptions) {
  if (o.distinctKernelDescriptorSets) return undefined;
  return new KernelShapeMemo<Draft<VulkanKernelPlan>>(module, keepsPlan);
}

const keepsPlan = (plan: VulkanKernelPlan): boolean => {
  for (const a of plan.args) if (a.argKind === 'local') return false;
  return true;
};

/**
 * Each parameter type's argument class, classified once per type object (a file of very many kernels passes a few
 * types again and again; classifyArg is a function of the type alone).
 */
type ClassOf = (t: FunctionInfo['params'][number]['type']) => ArgClass;
function argClasses(): ClassOf {
  const classes = new Map<FunctionInfo['params'][number]['type'], ArgClass>();
  return (t) => {
    let c = classes.get(t);
    if (c === undefined) classes.set(t, (c = classifyArg(t)));
    return c;
  };
}

/** A kernel's plan through the memo where there is one: a kernel of a shape planned before costs a lookup. */
class ShapePlans {
  private readonly make = (k: FunctionInfo) => {
    const params = k.params;
    const classes = new Array<ArgClass>(params.length);
    for (let i = 0; i < params.length; i++) classes[i] = this.classOf(params[i].type);
    return this.planner.plan(k, classes);
  };

  constructor(
    private readonly planner: KernelPlanner,
    private readonly memo: KernelShapeMemo<Draft<VulkanKernelPlan>> | undefined,
    private readonly classOf: ClassOf,
    private readonly diags: DiagnosticBag | undefined,
  ) {}

  plan(k: FunctionInfo): Draft<VulkanKernelPlan> {
    return this.memo ? this.memo.plan(k, this.make, this.diags) : this.make(k);
  }
}

/** The kernels' plans in order (a loop of its own, so the engine optimises it apart from lowerVulkan). */
function planKernels(plans: ShapePlans, kernels: readonly FunctionInfo[]): Draft<VulkanKernelPlan>[] {
  const all: Draft<VulkanKernelPlan>[] = [];
  for (let i = 0; i < kernels.length; i++) all.push(plans.plan(kernels[i]));
  return all;
}

/**
 * clspv's mapping of OpenCL C kernels onto Vulkan: descriptor sets and bindings, POD
 * clustering, local memory as spec-constant-sized arrays, literal samplers, module constants.
 */
export function lowerVulkan(
  module: KernelModule,
  o: VulkanTargetOptions,
  diags: DiagnosticBag,
): VulkanPlan | undefined {
  const lowered = vulkanLowering(module, o, diags, true);
  if (!lowered) return undefined;
  // The kernels where they always stood among the plan's members: before the printf buffer and the workgroup variables.
  const { printf, workgroupVariables: workgroup, ...rest } = lowered.head;
  return withPrintfFlag({
    ...rest,
    kernels: lowered.kernels!,
    ...(printf ? { printf } : {}),
    ...(workgroup ? { workgroupVariables: workgroup } : {}),
  });
}

/** A Vulkan lowering's module-wide fields, and its kernels' plans (`whole`) or a way to make them one at a time. */
export interface VulkanLowering {
  readonly head: Omit<VulkanPlan, 'kernels'>;
  readonly kernels?: readonly Draft<VulkanKernelPlan>[];
  /** Each kernel's plan again, in order, the same as the whole lowering's, reporting nothing. */
  replan(): Iterator<VulkanKernelPlan>;
  /** Some kernel's slot is a group's address table (address-tables.ts). */
  readonly addressTables: boolean;
}

/**
 * `lowerVulkan`; without `whole`, every kernel is planned once for what the module's fields need of it (its POD
 * block's end, its slots' contents, the sets and spec ids it takes) and dropped, and `replan` makes the plans again
 * as a writer reaches them: a file of very many kernels never holds its whole plan (issue 30).
 */
export function vulkanLowering(
  module: KernelModule,
  o: VulkanTargetOptions,
  diags: DiagnosticBag,
  whole: boolean,
): VulkanLowering | undefined {
  const arch = o.arch ?? 'spir';
  const dl = DATA_LAYOUTS[arch];
  const cluster = o.clusterPodKernelArgs ?? true;
  const maxPush = o.maxPushConstantSize ?? DEFAULT_MAX_PUSH_CONSTANT_SIZE;
  const kernels = kernelsOf(module);
  const err = (span: Span | undefined, message: Message, args: readonly (string | number)[] = []) =>
    diags.report(message, span, args);

  // Option conflicts, with clspv's words.
  const modulePushConstantsRequested = o.globalOffsetPushConstant === true || module.clVersion >= 200;
  if (o.podUbo && o.podPushConstant) err(undefined, Messages.vkPodUboAndPush);
  if (o.podPushConstant && !cluster) err(undefined, Messages.vkPodPushUnclustered);
  if (o.podPushConstant && modulePushConstantsRequested && (o.globalOffsetPushConstant || o.globalOffset)) {
    err(undefined, Messages.vkPodPushModulePush);
  }
  checkPhysicalPointerOptions(o, arch, err);

  // Restrictions of the seed.
  checkCalls(module, kernels, o, err);
  checkProgramScope(module, err);
  const classOf = argClasses();
  checkParams(kernels, classOf, o, err);
  checkBufferStorage(module, o, diags);

  const literal = literalSamplers(module, o);
  let nextSet = literal.length ? 1 : 0;
  const descriptorSets: { set: number; use: string }[] = [];
  if (literal.length) descriptorSets.push({ set: 0, use: 'literal samplers' });

  // Module push constants.
  const pushConstants: { name: string; offset: number; size: number }[] = [];
  const uses = (fn: string) => someKernelCalls(module, fn);
  const cl20 = module.clVersion >= 200;
  const globalOffsetPush =
    (o.globalOffsetPushConstant || (cl20 && o.globalOffset)) && (uses('get_global_id') || uses('get_global_offset'));
  const candidates: [string, boolean][] = [
    ['global_offset', Boolean(globalOffsetPush)],
    ['enqueued_local_size', uses('get_enqueued_local_size')],
    ['global_size', cl20 && uses('get_global_size')],
    ['region_offset', cl20 && Boolean(globalOffsetPush) && uses('get_global_id')],
    ['num_workgroups', cl20 && uses('get_num_groups')],
    ['region_group_offset', cl20 && uses('get_group_id')],
  ];
  let pcEnd = 0;
  for (const [name, on] of candidates) {
    if (!on) continue;
    const offset = alignTo(pcEnd, 16);
    pushConstants.push({ name, offset, size: 12 });
    pcEnd = offset + 12;
  }
  if (o.podPushConstant && pushConstants.length) err(undefined, Messages.vkPodPushModulePush);
  const moduleParts = clspvModuleParts(module, kernels, o, pushConstants, err);
  pcEnd = moduleParts.pcEnd;

  // Spec constants: work-group size, then locals, then work_dim and global offsets.
  const localSize = kernels.length > 0 && kernels.every((k) => k.attributes.reqdWorkGroupSize);
  const specConstants: { name: string; specId: number }[] = [];
  if (!localSize)
    specConstants.push(
      { name: 'workgroup_size_x', specId: 0 },
      { name: 'workgroup_size_y', specId: 1 },
      { name: 'workgroup_size_z', specId: 2 },
    );

  const firstSet = nextSet;
  const state: PlannerState = { nextSet, nextSpec: 3, descriptorSets };
  const modulePush = pushConstants.length > 0 || moduleParts.modulePush;
  const planner = new KernelPlanner(o, dl, modulePush, moduleParts, state, err);
  const plans = new ShapePlans(planner, vulkanShapeMemo(module, o), classOf, diags);
  const kernelPlans = whole ? planKernels(plans, kernels) : undefined;
  const facts = kernelPlans ? kernelFacts(kernelPlans) : planKernelFacts(plans, kernels);
  nextSet = state.nextSet;
  let nextSpec = state.nextSpec;
  const metadataAt = imageMetadataBase(moduleParts.imageMetadata, pcEnd, facts.podEnd);
  if (metadataAt && kernelPlans)
    for (const k of kernelPlans) setImageMetadata(k, moduleParts.imageMetadata, metadataAt.base);
  if (metadataAt) pcEnd = metadataAt.end;
  if ((o.workDim ?? true) && uses('get_work_dim')) specConstants.push({ name: 'work_dim', specId: nextSpec++ });
  if (o.globalOffset && !globalOffsetPush && (uses('get_global_id') || uses('get_global_offset'))) {
    for (const axis of ['x', 'y', 'z']) specConstants.push({ name: `global_offset_${axis}`, specId: nextSpec++ });
  }
  // get_max_sub_group_size (and get_enqueued_num_sub_groups, defined through it) reads a spec
  // constant clspv allocates last (DefineOpenCLWorkItemBuiltinsPass, SPIRVProducerPass):
  // reflected by SpecConstantSubgroupMaxSize.
  if (uses('get_max_sub_group_size') || uses('get_enqueued_num_sub_groups'))
    specConstants.push({ name: 'subgroup_max_size', specId: nextSpec++ });

  // Module constants in one storage buffer, in the set after the kernel-argument sets (or, with
  // physical storage buffers, behind the pointer clspvModuleParts placed among the push constants).
  let constantData: VulkanPlan['constantData'];
  if (o.moduleConstantsInStorageBuffer && module.variables.some((v) => v.space === 'constant')) {
    let end = 0;
    const vars: { name: string; offset: number; size: number; bytes: Uint8Array }[] = [];
    for (const v of module.variables) {
      if (v.space !== 'constant') continue;
      const off = alignTo(end, layoutOf(v.type, dl).align);
      vars.push({ name: v.name, offset: off, size: v.bytes.length, bytes: v.bytes });
      end = off + v.bytes.length;
    }
    const bytes = new Uint8Array(end);
    for (const v of vars) bytes.set(v.bytes, v.offset);
    const hexbytes = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
    const variables = vars.map(({ name, offset, size }) => ({ name, offset, size }));
    if (moduleParts.constantsPointerOffset !== undefined) {
      constantData = {
        reflection: 'ConstantDataPointerPushConstant',
        pushConstantOffset: moduleParts.constantsPointerOffset,
        size: 8,
        hexbytes,
        variables,
      };
    } else {
      const set = nextSet++;
      descriptorSets.push({ set, use: 'module constants' });
      constantData = { descriptorSet: set, binding: 0, kind: 'buffer', hexbytes, variables };
    }
  }
  const printf =
    moduleParts.printf &&
    printfPlan(moduleParts.printf, () => {
      descriptorSets.push({ set: nextSet, use: 'printf buffer' });
      return nextSet++;
    });
  if (diags.hasErrors) return undefined;

  const needs = vulkanRequirements(module, planner.contents, constantData, printf, uses);
  const pcSize = Math.max(pcEnd, 0, facts.pushEnd);
  const workgroup = workgroupVariables(kernels, dl);
  const head = {
    target: 'vulkan',
    arch,
    pushConstants,
    literalSamplers: literal,
    ...(constantData ? { constantData } : {}),
    specConstants,
    localSize,
    descriptorSets,
    ...(pcSize ? { pushConstantRange: { offset: 0, size: alignTo(pcSize, 4) } } : {}),
    ...needs,
    ...(printf ? { printf } : {}),
    ...(workgroup.length ? { workgroupVariables: workgroup } : {}),
  } as const;
  const prints = (printf?.infos.length ?? 0) > 0;
  // The same planner, made again from the state the first one started with: the same plans (its reports dropped).
  function* replan(): Generator<VulkanKernelPlan, void, undefined> {
    const again = new KernelPlanner(
      o,
      dl,
      modulePush,
      moduleParts,
      { nextSet: firstSet, nextSpec: 3, descriptorSets: [] },
      () => {},
    );
    const plans = new ShapePlans(again, vulkanShapeMemo(module, o), classOf, undefined);
    for (let i = 0; i < kernels.length; i++) {
      const plan = plans.plan(kernels[i]);
      if (metadataAt) setImageMetadata(plan, moduleParts.imageMetadata, metadataAt.base);
      if (prints) plan.mayUsePrintf = true;
      yield plan;
    }
  }
  return { head, kernels: kernelPlans, replan, addressTables: facts.addressTables };
}

/** What the module's fields need of the kernels' plans. */
interface KernelFacts {
  /** The furthest end of a POD block at an offset (`podBlockEnd`), and of one in push constants. */
  readonly podEnd: number;
  readonly pushEnd: number;
  readonly addressTables: boolean;
}

function kernelFacts(plans: readonly VulkanKernelPlan[]): KernelFacts {
  let podEnd = 0;
  let pushEnd = 0;
  let addressTables = false;
  for (const k of plans) {
    podEnd = Math.max(podEnd, podBlockEnd(k));
    if (k.podPlacement === 'pushconstant') pushEnd = Math.max(pushEnd, (k.podOffset ?? 0) + k.podSize);
    addressTables ||= hasAddressTable(k);
  }
  return { podEnd, pushEnd, addressTables };
}

/** `kernelFacts` of the plans `planKernels` would make, each dropped once read (a loop of its own, as planKernels). */
function planKernelFacts(plans: ShapePlans, kernels: readonly FunctionInfo[]): KernelFacts {
  let podEnd = 0;
  let pushEnd = 0;
  let addressTables = false;
  for (let i = 0; i < kernels.length; i++) {
    const k = plans.plan(kernels[i]);
    podEnd = Math.max(podEnd, podBlockEnd(k));
    if (k.podPlacement === 'pushconstant') pushEnd = Math.max(pushEnd, (k.podOffset ?? 0) + k.podSize);
    addressTables ||= hasAddressTable(k);
  }
  return { podEnd, pushEnd, addressTables };
}
