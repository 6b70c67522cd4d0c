import { DATA_LAYOUTS } from '../../layout/data-layout.js';
import { emitJson, emitJsonPieces } from '../../emit/json.js';
import { kernelsOf } from '../../model/kernel-module.js';
import { declareFlags } from '../flag-declarations.js';
import { type Target, type TargetFlag } from '../target.js';
import { planPacking } from '../../pack/plan-packing.js';
import { choiceProblem } from '../option-problem.js';
import { emitDescriptorMap, emitDescriptorMapPieces } from './descriptor-map.js';
import { withAddressTableNeeds, withAddressTableSlots, withAddressTables } from './address-tables.js';
import { type VulkanPlan, lowerVulkan, vulkanLowering } from './lower.js';
import { BINDING_SCHEMES, DEFAULT_MAX_PUSH_CONSTANT_SIZE } from './plan.js';
import { DEFAULT_PRINTF_BUFFER_SIZE } from './printf.js';
import { parseSamplerMap } from './sampler-map.js';
import { vulkanTable, vulkanTablePieces } from './table.js';
import { readVulkanPlan } from './schema.js';
import { VULKAN_VOCABULARY, vulkanView } from './view.js';

const ARCHES = ['spir', 'spir64'] as const;
const STORAGE = ['ssbo', 'ubo', 'pushconstant'] as const;
const POD_ARGS = ['ssbo', 'auto'] as const;

/** clspv's Vulkan calling convention: descriptor sets, bindings, POD blocks, push and spec constants. */
export const vulkanTarget: Target<VulkanPlan, 'bindings'> = {
  name: 'vulkan',
  title: 'Vulkan (clspv)',
  summary: "clspv's Vulkan interface: descriptor sets and bindings, POD blocks, push and spec constants",
  // clspv spells its options with one dash too (`-pod-ubo`, `-cluster-pod-kernel-args=0`).
  flags: declareFlags('vulkan', [
    {
      kind: 'choice',
      key: 'arch',
      flag: 'arch',
      choices: ARCHES,
      default: 'spir',
      help: 'device address width values are sized with',
    },
    {
      kind: 'zero-one',
      key: 'clusterPodKernelArgs',
      flag: 'cluster-pod-kernel-args',
      default: true,
      help: 'collect POD arguments into one struct',
    },
    { kind: 'boolean', key: 'podUbo', flag: 'pod-ubo', help: 'POD arguments in a uniform buffer' },
    { kind: 'boolean', key: 'podPushConstant', flag: 'pod-pushconstant', help: 'POD arguments in push constants' },
    {
      kind: 'choice',
      key: 'podArgs',
      flag: 'pod-args',
      choices: POD_ARGS,
      default: 'ssbo',
      help: "ssbo (the seed's) or auto (today's clspv: push constant, UBO, SSBO)",
    },
    {
      kind: 'count',
      key: 'maxPushConstantSize',
      flag: 'max-pushconstant-size',
      value: '<bytes>',
      default: DEFAULT_MAX_PUSH_CONSTANT_SIZE,
      help: 'push-constant limit',
    },
    {
      kind: 'boolean',
      key: 'constantArgsUbo',
      flag: 'constant-args-ubo',
      help: 'constant pointer arguments in uniform buffers',
    },
    {
      kind: 'boolean',
      key: 'distinctKernelDescriptorSets',
      flag: 'distinct-kernel-descriptor-sets',
      help: 'one descriptor set per kernel',
    },
    {
      kind: 'boolean',
      key: 'moduleConstantsInStorageBuffer',
      flag: 'module-constants-in-storage-buffer',
      help: 'module-scope constants in one storage buffer',
    },
    {
      kind: 'file',
      key: 'samplerMap',
      flag: 'samplermap',
      value: '<file>',
      help: 'sampler map (set 0, bindings in file order)',
      read(text) {
        const r = parseSamplerMap(text);
        return 'message' in r ? r : { value: r.masks };
      },
    },
    { kind: 'boolean', key: 'globalOffset', flag: 'global-offset', help: 'support get_global_offset (spec constants)' },
    {
      kind: 'boolean',
      key: 'globalOffsetPushConstant',
      flag: 'global-offset-push-constant',
      help: 'global offset as a module push constant',
    },
    {
      kind: 'zero-one',
      key: 'workDim',
      flag: 'work-dim',
      default: true,
      help: 'work_dim spec constant for get_work_dim',
    },
    { kind: 'boolean', key: 'longVector', flag: 'long-vector', help: 'allow vectors of 8 and 16' },
    {
      kind: 'choice',
      key: 'bindingScheme',
      flag: 'binding-scheme',
      choices: BINDING_SCHEMES,
      default: 'per-kernel',
      // The first spellings, named after where each scheme was read (the seed's examples, today's clspv).
      deprecated: { seed: 'per-kernel', clspv: 'by-position' },
      help:
        "each kernel's bindings from 0 (per-kernel) or one binding per argument position across kernels " +
        "(by-position, as today's clspv)",
    },
    {
      kind: 'words',
      key: 'no8bitStorage',
      flag: 'no-8bit-storage',
      choices: STORAGE,
      repeatable: true,
      noun: 'storage class',
      help: 'storage classes without 8-bit access',
    },
    {
      kind: 'words',
      key: 'no16bitStorage',
      flag: 'no-16bit-storage',
      choices: STORAGE,
      repeatable: true,
      noun: 'storage class',
      help: 'storage classes without 16-bit access',
    },
    {
      kind: 'boolean',
      key: 'physicalStorageBuffers',
      flag: 'physical-storage-buffers',
      help: "today's clspv, --arch=spir64: global and constant pointers as 8-byte addresses among the PODs",
    },
    {
      kind: 'boolean',
      key: 'enablePrintf',
      flag: 'enable-printf',
      help: "today's clspv: printf writes to a printf buffer described by reflection data",
    },
    {
      kind: 'boolean',
      key: 'floatAtomicAdd',
      flag: 'float-atomic-add',
      help:
        '--format spirv*: floating atomic adds as OpAtomicFAddEXT (devices with shaderBufferFloat32/64AtomicAdd) ' +
        'instead of compare-and-swap loops',
    },
    {
      kind: 'boolean',
      key: 'nativeMath',
      flag: 'cl-native-math',
      help:
        "clspv's native math builtins; implies -cl-fast-relaxed-math (defines __FAST_RELAXED_MATH__), no other " +
        'ABI effect',
    },
    {
      kind: 'count',
      key: 'printfBufferSize',
      flag: 'printf-buffer-size',
      value: '<bytes>',
      default: DEFAULT_PRINTF_BUFFER_SIZE,
      help: 'printf buffer size',
    },
  ]).map((f): TargetFlag => ({ ...f, singleDash: true })),
  formats: ['table', 'json', 'descriptor-map'],
  layout: (o) => DATA_LAYOUTS[o.vulkan?.arch ?? 'spir'],
  // clspv defines VULKAN (100, for Vulkan 1.0) for its sources.
  // clspv defines __FAST_RELAXED_MATH__ under -cl-native-math (lower adds it itself for -cl-fast-relaxed-math).
  predefines: (o) =>
    o.vulkan?.nativeMath && !o.fastRelaxedMath
      ? [
          ['VULKAN', '100'],
          ['__FAST_RELAXED_MATH__', '1'],
        ]
      : [['VULKAN', '100']],
  optionProblem: (o) => choiceProblem('vulkan.arch', o.vulkan?.arch, ARCHES),
  flagConflict(o) {
    const v = o.vulkan ?? {};
    if (v.podUbo && v.podPushConstant)
      return 'POD arguments can only be in either uniform buffers or push constants (--pod-ubo, --pod-pushconstant)';
    if (v.podPushConstant && v.clusterPodKernelArgs === false)
      return (
        'POD arguments must be clustered to be passed as push constants (--pod-pushconstant, ' +
        '--cluster-pod-kernel-args=0)'
      );
    return undefined;
  },
  table: vulkanTable,
  vocabulary: VULKAN_VOCABULARY,
  view: vulkanView,
  readPlan: readVulkanPlan,
  // Push constants, descriptor bindings and spec constants.
  pack: planPacking('bindings', (k) => ({ segment: 0, pushConstants: k.podSize })),
  lower(module, o, diags) {
    const plan = withAddressTables(lowerVulkan(module, o.vulkan ?? {}, diags));
    if (!plan) return undefined;
    return {
      plan,
      render(format) {
        if (format === 'json') return emitJson(plan);
        if (format === 'descriptor-map') return emitDescriptorMap(plan);
        return vulkanTable(plan);
      },
      pieces(format) {
        if (format === 'table') return vulkanTablePieces(plan);
        if (format === 'descriptor-map') return emitDescriptorMapPieces(plan);
        return undefined;
      },
    };
  },
  // Sets, push-constant ranges and requirements span kernels: every kernel is planned once for them, then again as
  // it is written (vulkanLowering), a kernel of a shape planned before costing a lookup in each pass.
  kernelwise: {
    formats: ['table', 'json', 'descriptor-map'],
    lower(module, o, diags) {
      const lowered = vulkanLowering(module, o.vulkan ?? {}, diags, false);
      if (!lowered) return undefined;
      const { head, replan, addressTables } = lowered;
      return {
        head: addressTables ? withAddressTableNeeds(head) : head,
        count: kernelsOf(module).length,
        kernels: addressTables ? () => mapIterator(replan(), withAddressTableSlots) : replan,
        quiet: true,
        pieces(plan, format) {
          if (format === 'json') return emitJsonPieces(plan);
          if (format === 'descriptor-map') return emitDescriptorMapPieces(plan);
          return vulkanTablePieces(plan);
        },
      };
    },
  },
};

function* mapIterator<T, U>(it: Iterator<T>, f: (t: T) => U): Generator<U, void, undefined> {
  for (let r = it.next(); !r.done; r = it.next()) yield f(r.value);
}
