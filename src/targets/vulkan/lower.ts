import { alignTo } from '../../layout/align.js';
import type { DiagnosticBag } from '../../diagnostics/diagnostic.js';
import { type Message, Messages } from '../../diagnostics/messages.js';
import type { Span } from '../../diagnostics/source.js';
import { DATA_LAYOUTS } from '../../layout/data-layout.js';
import { layoutOf } from '../../layout/layout.js';
import { type FunctionInfo, type KernelModule, kernelsOf } from '../../model/kernel-module.js';
import { someKernelCalls } from '../../abi/call-graph.js';
import type { Draft } from '../../abi/origin.js';
import {
  checkPhysicalPointerOptions,
  placeImageMetadata,
  printfPlan,
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
  const used = new Set(module.functions.flatMap((f) => f.uses));
  const masks = [...(o.samplerMap ?? [])];
  for (const s of module.samplers) if (used.has(s.name) && !masks.includes(s.value)) masks.push(s.value);
  masks.forEach((mask, binding) => {
    const named = module.samplers.find((s) => s.value === mask && used.has(s.name));
    literal.push({ mask, expr: samplerExpr(mask), descriptorSet: 0, binding, ...(named ? { name: named.name } : {}) });
  });
  return literal;
}

/** The kernels' plans in order (a loop of its own, so the engine optimises it apart from lowerVulkan). */
function planKernels(
  planner: KernelPlanner,
  kernels: readonly FunctionInfo[],
  classes: readonly (readonly ArgClass[])[],
): Draft<VulkanKernelPlan>[] {
  const plans: Draft<VulkanKernelPlan>[] = [];
  for (let i = 0; i < kernels.length; i++) plans.push(planner.plan(kernels[i], classes[i]));
  return plans;
}

/** The end of the push constants: the module's, and every kernel's POD block there. */
function pushConstantEnd(plans: readonly VulkanKernelPlan[], pcEnd: number): number {
  let end = Math.max(pcEnd, 0);
  for (const k of plans) if (k.podPlacement === 'pushconstant') end = Math.max(end, (k.podOffset ?? 0) + k.podSize);
  return end;
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
  const classes = kernels.map((k) => k.params.map((p) => classifyArg(p.type)));
  checkParams(kernels, classes, o, err);
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

  const state: PlannerState = { nextSet, nextSpec: 3, descriptorSets };
  const planner = new KernelPlanner(o, dl, pushConstants.length > 0 || moduleParts.modulePush, moduleParts, state, err);
  const kernelPlans = planKernels(planner, kernels, classes);
  nextSet = state.nextSet;
  let nextSpec = state.nextSpec;
  pcEnd = placeImageMetadata(kernelPlans, moduleParts.imageMetadata, pcEnd);
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
  const pcSize = pushConstantEnd(kernelPlans, pcEnd);
  const workgroup = workgroupVariables(kernels, dl);
  return withPrintfFlag({
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
    kernels: kernelPlans,
    ...(printf ? { printf } : {}),
    ...(workgroup.length ? { workgroupVariables: workgroup } : {}),
  });
}
