// The targets the page offers and their main options, mapped onto the core's LowerOptions.
import { type LowerOptions, type TargetName, type Triple, CL_STDS, type ClStd, TARGETS, TRIPLES } from 'kernarg';

export interface Choice {
  readonly value: string;
  readonly label: string;
}

/** One control: a choice list, or an on/off flag (values 'on' and 'off'). */
export interface OptionSpec {
  readonly key: string;
  readonly label: string;
  readonly help: string;
  readonly kind: 'choice' | 'flag';
  readonly choices?: readonly Choice[];
  readonly default: string;
}

const choice = (key: string, label: string, help: string, values: readonly (string | Choice)[], dflt?: string): OptionSpec => {
  const choices = values.map((v) => (typeof v === 'string' ? { value: v, label: v } : v));
  return { key, label, help, kind: 'choice', choices, default: dflt ?? choices[0].value };
};
const flag = (key: string, label: string, help: string, dflt: boolean): OptionSpec => ({ key, label, help, kind: 'flag', default: dflt ? 'on' : 'off' });

export const TARGET_TITLES: Record<TargetName, string> = {
  opencl: 'OpenCL (clSetKernelArg)',
  vulkan: 'Vulkan (clspv)',
  amdhsa: 'AMDHSA (ROCm)',
  'amd-cl2': 'AMD OpenCL 2.0 (CLRX)',
  llvm: 'LLVM IR metadata',
  r600: 'r600 (clover)',
};

export const TARGET_OPTIONS: Record<TargetName, readonly OptionSpec[]> = {
  opencl: [choice('arch', 'Address width', 'spir64: 64-bit size_t; spir: 32-bit', ['spir64', 'spir'])],
  vulkan: [
    choice('pod', 'POD arguments in', "clspv's placement of by-value arguments", [
      { value: 'ssbo', label: 'storage buffer' },
      { value: 'ubo', label: 'uniform buffer (--pod-ubo)' },
      { value: 'pushconstant', label: 'push constants (--pod-pushconstant)' },
      { value: 'auto', label: "per kernel, as today's clspv (--pod-args=auto)" },
    ]),
    flag('cluster', 'Cluster PODs into one struct', '--cluster-pod-kernel-args (off: one binding per POD)', true),
    choice('arch', 'Address width', '--arch', ['spir', 'spir64']),
    flag('constantUbo', 'Constant pointers as UBOs', '--constant-args-ubo', false),
    flag('distinctSets', 'One descriptor set per kernel', '--distinct-kernel-descriptor-sets', false),
    flag('globalOffset', 'Global offset', '--global-offset (spec constants)', false),
    choice('bindings', 'Binding numbers', '--binding-scheme', [
      { value: 'seed', label: 'per kernel' },
      { value: 'clspv', label: "by position (today's clspv)" },
    ]),
  ],
  amdhsa: [choice('codeObject', 'Code object', '--code-object', [{ value: '5', label: 'v5 (256 hidden bytes)' }, { value: '4', label: 'v4 (56 hidden bytes)' }])],
  'amd-cl2': [
    choice('bits', 'Pointer width', '--bits', [{ value: '64', label: '64-bit' }, { value: '32', label: '32-bit' }]),
    choice('driver', 'Driver generation', '--driver', [{ value: 'new', label: 'new (from 191205)' }, { value: 'old', label: 'old' }]),
  ],
  llvm: [
    choice('metadata', 'Metadata form', '--metadata', [{ value: 'modern', label: 'modern (per function)' }, { value: 'legacy', label: 'legacy (!opencl.kernels)' }]),
    choice('triple', 'Triple', '--triple', TRIPLES),
  ],
  r600: [],
};

export const ALL_TARGETS: readonly TargetName[] = TARGETS;
export const CL_VERSIONS: readonly ClStd[] = CL_STDS;

/** The value of a target option in a state's option map, or its default. */
export function optionValue(options: Readonly<Record<string, string>>, target: TargetName, spec: OptionSpec): string {
  const v = options[`${target}.${spec.key}`];
  if (v === undefined) return spec.default;
  if (spec.kind === 'flag') return v === 'on' ? 'on' : 'off';
  return spec.choices?.some((c) => c.value === v) ? v : spec.default;
}

/** `-D` text (`N=4 FAST`, `-D N=4 -DFAST`) as the core's define pairs. */
export function parseDefines(text: string): [string, string | undefined][] {
  const out: [string, string | undefined][] = [];
  const words = text.trim().split(/\s+/).filter((w) => w !== '' && w !== '-D');
  for (const raw of words) {
    const w = raw.startsWith('-D') ? raw.slice(2) : raw;
    const eq = w.indexOf('=');
    out.push(eq < 0 ? [w, undefined] : [w.slice(0, eq), w.slice(eq + 1)]);
  }
  return out;
}

export interface SourceOptions {
  readonly defines: string;
  readonly std: ClStd;
}

/** LowerOptions for one target from the page's source options and option map. */
export function lowerOptions(target: TargetName, src: SourceOptions, options: Readonly<Record<string, string>>, format: string): LowerOptions {
  const get = (key: string): string => {
    const spec = TARGET_OPTIONS[target].find((s) => s.key === key);
    if (!spec) throw new Error(`no option ${target}.${key}`);
    return optionValue(options, target, spec);
  };
  const base = { target, format, std: src.std, defines: parseDefines(src.defines) };
  switch (target) {
    case 'opencl':
      return { ...base, arch: get('arch') as 'spir' | 'spir64' };
    case 'vulkan': {
      const pod = get('pod');
      return {
        ...base,
        vulkan: {
          podUbo: pod === 'ubo',
          podPushConstant: pod === 'pushconstant',
          podArgs: pod === 'auto' ? 'auto' : 'ssbo',
          clusterPodKernelArgs: get('cluster') === 'on',
          arch: get('arch') as 'spir' | 'spir64',
          constantArgsUbo: get('constantUbo') === 'on',
          distinctKernelDescriptorSets: get('distinctSets') === 'on',
          globalOffset: get('globalOffset') === 'on',
          bindingScheme: get('bindings') as 'seed' | 'clspv',
        },
      };
    }
    case 'amdhsa':
      return { ...base, codeObject: get('codeObject') === '4' ? 4 : 5 };
    case 'amd-cl2':
      return { ...base, amdCl2: { bits: get('bits') === '32' ? 32 : 64, driver: get('driver') as 'new' | 'old' } };
    case 'llvm':
      return { ...base, llvm: { metadata: get('metadata') as 'modern' | 'legacy', triple: get('triple') as Triple } };
    case 'r600':
      return base;
  }
}
