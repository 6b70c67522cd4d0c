import { DATA_LAYOUTS } from '../../layout/data-layout.js';
import { emitJson } from '../../emit/json.js';
import { type LowerOptions, pick } from '../options.js';
import { type Target, type TargetFlag } from '../target.js';
import { choiceProblem } from '../option-problem.js';
import { emitDescriptorMap } from './descriptor-map.js';
import { withAddressTables } from './address-tables.js';
import { disassemble } from '../../emit/spirv/disassemble.js';
import { emitTinytcSpirv } from '../../codegen/spirv/index.js';
import { type VulkanPlan, type VulkanTargetOptions, lowerVulkan } from './lower.js';
import { BINDING_SCHEMES } from './plan.js';
import { parseSamplerMap } from './sampler-map.js';
import { vulkanTable } from './table.js';
import { readVulkanPlan } from './schema.js';
import { VULKAN_VOCABULARY, vulkanView } from './view.js';

const ARCHES = ['spir', 'spir64'] as const;
const ZERO_ONE = ['0', '1'] as const;
const STORAGE = ['ssbo', 'ubo', 'pushconstant'] as const;
const POD_ARGS = ['ssbo', 'auto'] as const;

const set = (o: LowerOptions, v: Partial<VulkanTargetOptions>): LowerOptions => ({ ...o, vulkan: { ...o.vulkan, ...v } });
const bool = (flag: string, key: 'podUbo' | 'podPushConstant' | 'constantArgsUbo' | 'distinctKernelDescriptorSets' | 'moduleConstantsInStorageBuffer' | 'globalOffset' | 'globalOffsetPushConstant' | 'longVector' | 'physicalStorageBuffers' | 'enablePrintf' | 'nativeMath', help: string): TargetFlag =>
  ({ kind: 'boolean', flag, help, apply: (o, v) => set(o, { [key]: v }) });

/** clspv's Vulkan calling convention: descriptor sets, bindings, POD blocks, push and spec constants. */
export const vulkanTarget: Target<VulkanPlan> = {
  name: 'vulkan',
  title: 'Vulkan (clspv)',
  summary: "clspv's Vulkan interface: descriptor sets and bindings, POD blocks, push and spec constants",
  // clspv spells its options with one dash too (`-pod-ubo`, `-cluster-pod-kernel-args=0`).
  flags: ([
    { kind: 'choice', flag: 'arch', choices: ARCHES, default: 'spir', help: 'device address width values are sized with', apply: (o, v) => set(o, { arch: pick(ARCHES, v) }) },
    { kind: 'choice', flag: 'cluster-pod-kernel-args', choices: ZERO_ONE, default: '1', help: 'collect POD arguments into one struct', apply: (o, v) => set(o, { clusterPodKernelArgs: v === '1' }) },
    bool('pod-ubo', 'podUbo', 'POD arguments in a uniform buffer'),
    bool('pod-pushconstant', 'podPushConstant', 'POD arguments in push constants'),
    { kind: 'choice', flag: 'pod-args', choices: POD_ARGS, default: 'ssbo', help: "ssbo (the seed's) or auto (today's clspv: push constant, UBO, SSBO)", apply: (o, v) => set(o, { podArgs: pick(POD_ARGS, v) }) },
    { kind: 'count', flag: 'max-pushconstant-size', value: '<bytes>', default: '128', help: 'push-constant limit', apply: (o, v) => set(o, { maxPushConstantSize: v }) },
    bool('constant-args-ubo', 'constantArgsUbo', 'constant pointer arguments in uniform buffers'),
    bool('distinct-kernel-descriptor-sets', 'distinctKernelDescriptorSets', 'one descriptor set per kernel'),
    bool('module-constants-in-storage-buffer', 'moduleConstantsInStorageBuffer', 'module-scope constants in one storage buffer'),
    {
      kind: 'file', flag: 'samplermap', value: '<file>', help: 'sampler map (set 0, bindings in file order)',
      apply(o, text) {
        const r = parseSamplerMap(text);
        return 'message' in r ? r : set(o, { samplerMap: r.masks });
      },
    },
    bool('global-offset', 'globalOffset', 'support get_global_offset (spec constants)'),
    bool('global-offset-push-constant', 'globalOffsetPushConstant', 'global offset as a module push constant'),
    { kind: 'choice', flag: 'work-dim', choices: ZERO_ONE, default: '1', help: 'work_dim spec constant for get_work_dim', apply: (o, v) => set(o, { workDim: v === '1' }) },
    bool('long-vector', 'longVector', 'allow vectors of 8 and 16'),
    {
      kind: 'choice', flag: 'binding-scheme', choices: BINDING_SCHEMES, default: 'per-kernel',
      // The first spellings, named after where each scheme was read (the seed's examples, today's clspv).
      deprecated: { seed: 'per-kernel', clspv: 'by-position' },
      help: "each kernel's bindings from 0 (per-kernel) or one binding per argument position across kernels (by-position, as today's clspv)",
      apply: (o, v) => set(o, { bindingScheme: pick(BINDING_SCHEMES, v) }),
    },
    { kind: 'words', flag: 'no-8bit-storage', choices: STORAGE, repeatable: true, noun: 'storage class', help: 'storage classes without 8-bit access', apply: (o, v) => set(o, { no8bitStorage: v.map((w) => pick(STORAGE, w)) }) },
    { kind: 'words', flag: 'no-16bit-storage', choices: STORAGE, repeatable: true, noun: 'storage class', help: 'storage classes without 16-bit access', apply: (o, v) => set(o, { no16bitStorage: v.map((w) => pick(STORAGE, w)) }) },
    bool('physical-storage-buffers', 'physicalStorageBuffers', "today's clspv, --arch=spir64: global and constant pointers as 8-byte addresses among the PODs"),
    bool('enable-printf', 'enablePrintf', "today's clspv: printf writes to a printf buffer described by reflection data"),
    {
      kind: 'boolean', flag: 'float-atomic-add', help: '--format spirv*: floating atomic adds as OpAtomicFAddEXT (devices with shaderBufferFloat32/64AtomicAdd) instead of compare-and-swap loops',
      apply: (o, v) => set(o, { floatAtomicAdd: v }),
    },
    bool('cl-native-math', 'nativeMath', "clspv's native math builtins; implies -cl-fast-relaxed-math (defines __FAST_RELAXED_MATH__), no other ABI effect"),
    { kind: 'count', flag: 'printf-buffer-size', value: '<bytes>', default: '1048576', help: 'printf buffer size', apply: (o, v) => set(o, { printfBufferSize: v }) },
  ] satisfies TargetFlag[]).map((f): TargetFlag => ({ ...f, singleDash: true })),
  formats: ['table', 'json', 'descriptor-map', 'spirv', 'spirv-asm'],
  tinytcFormats: ['spirv', 'spirv-asm'],
  layout: (o) => DATA_LAYOUTS[o.vulkan?.arch ?? 'spir'],
  // clspv defines VULKAN (100, for Vulkan 1.0) for its sources.
  // clspv defines __FAST_RELAXED_MATH__ under -cl-native-math (lower adds it itself for -cl-fast-relaxed-math).
  predefines: (o) => (o.vulkan?.nativeMath && !o.fastRelaxedMath ? [['VULKAN', '100'], ['__FAST_RELAXED_MATH__', '1']] : [['VULKAN', '100']]),
  optionProblem: (o) => choiceProblem('vulkan.arch', o.vulkan?.arch, ARCHES),
  flagConflict(o) {
    const v = o.vulkan ?? {};
    if (v.podUbo && v.podPushConstant) return 'POD arguments can only be in either uniform buffers or push constants (--pod-ubo, --pod-pushconstant)';
    if (v.podPushConstant && v.clusterPodKernelArgs === false) return 'POD arguments must be clustered to be passed as push constants (--pod-pushconstant, --cluster-pod-kernel-args=0)';
    return undefined;
  },
  table: vulkanTable,
  vocabulary: VULKAN_VOCABULARY,
  view: vulkanView,
  readPlan: readVulkanPlan,
  lower(module, o, diags) {
    const plan = withAddressTables(lowerVulkan(module, o.vulkan ?? {}, diags));
    if (!plan) return undefined;
    return {
      plan,
      render(format, ctx) {
        if (format === 'json') return emitJson(plan);
        if (format === 'descriptor-map') return emitDescriptorMap(plan);
        if (format === 'spirv' || format === 'spirv-asm') {
          if (!ctx.tinytc) throw new RangeError(`--format ${format} needs tinytc input`);
          const words = emitTinytcSpirv(ctx.tinytc, plan, { floatAtomicAdd: o.vulkan?.floatAtomicAdd });
          return format === 'spirv-asm' ? disassemble(words) : new Uint8Array(words.buffer, words.byteOffset, words.byteLength);
        }
        return vulkanTable(plan);
      },
    };
  },
};
