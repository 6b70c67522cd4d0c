import { escapeControls, formatDiagnostics } from '../diagnostics/format.js';
import { CL_STDS, type ClStd } from '../frontend/opencl-c/predefined.js';
import { AMD_CL2_FEATURES, type AmdCl2Feature } from '../abi/amd-cl2.js';
import { TRIPLES, type Triple } from '../abi/llvm.js';
import { parseSamplerMap } from '../abi/sampler-map.js';
import type { CommandLineMacro } from '../frontend/opencl-c/preprocessor.js';
import { FORMATS, type LowerOptions, TARGETS, type TargetName, lower } from '../lower.js';
import { type OptionSpec, UsageError, parseArgs } from './args.js';
import { type CliIO, includeHost, readStdinText, readText } from './io.js';

/** clBuildProgram options (and clang's spellings of them) that change code, not the argument ABI. */
const BUILD_OPTIONS_WITHOUT_ABI_EFFECT = [
  'cl-single-precision-constant', 'cl-denorms-are-zero', 'cl-fp32-correctly-rounded-divide-sqrt', 'cl-opt-disable',
  'cl-mad-enable', 'cl-no-signed-zeros', 'cl-unsafe-math-optimizations', 'cl-finite-math-only', 'cl-uniform-work-group-size',
  'cl-no-subgroup-ifp', 'cl-strict-aliasing',
];

/** clspv's options: `-pod-ubo` as clspv spells them, `--pod-ubo` too. */
const CLSPV_OPTIONS = new Set(['cluster-pod-kernel-args', 'pod-ubo', 'pod-pushconstant', 'pod-args', 'max-pushconstant-size', 'constant-args-ubo',
  'distinct-kernel-descriptor-sets', 'module-constants-in-storage-buffer', 'samplermap', 'global-offset', 'global-offset-push-constant', 'work-dim',
  'long-vector', 'binding-scheme', 'no-8bit-storage', 'no-16bit-storage', 'physical-storage-buffers', 'enable-printf', 'printf-buffer-size', 'arch']);

export const LOWER_OPTIONS: readonly OptionSpec[] = ([
  { name: 'target', kind: 'string', value: '<target>', help: `target ABI: ${TARGETS.join(' | ')}` },
  { name: 'format', kind: 'string', value: '<format>', help: 'output: table (default) | json | signatures, opencl-c (opencl) | descriptor-map, spirv (binary, needs -o), spirv-asm (vulkan, tinytc input) | clrx (amd-cl2) | llvm-ir (llvm, r600)' },
  { name: 'include', short: 'I', kind: 'list', value: '<dir>', help: 'add a directory to the #include search path' },
  { name: 'define', short: 'D', kind: 'list', value: '<name>[=<value>]', help: "define a macro, object-like or function-like ('F(x)=body'), in order with -U" },
  { name: 'undefine', short: 'U', kind: 'list', value: '<name>', help: 'undefine a macro' },
  { name: 'cl-std', kind: 'string', value: '<CLx.y>', help: `OpenCL C version: ${CL_STDS.join(' | ')} (default CL1.2; clang's -cl-std=CL2.0 too)`, singleDash: true },
  { name: 'language', short: 'x', kind: 'string', value: 'cl|ir', help: "input language, as clang's -x (default: from the file's extension; needed for - as standard input)" },
  { name: 'no-warnings', short: 'w', kind: 'boolean', help: 'suppress warnings (clang -w)' },
  { name: 'Werror', kind: 'boolean', help: 'treat warnings as errors (clang -Werror)', singleDash: true },
  { name: 'cl-fast-relaxed-math', kind: 'boolean', help: 'as clang: defines __FAST_RELAXED_MATH__', singleDash: true },
  { name: 'cl-kernel-arg-info', kind: 'boolean', help: 'as clang; for --target llvm the same as --kernel-arg-info', singleDash: true },
  ...BUILD_OPTIONS_WITHOUT_ABI_EFFECT.map((name): OptionSpec => ({ name, kind: 'boolean', help: 'OpenCL build option: accepted, no effect on the ABI', singleDash: true })),
  { name: 'arch', kind: 'string', value: 'spir|spir64', help: 'device address width for the opencl target (default spir64)' },
  { name: 'code-object', kind: 'string', value: '4|5|6', help: 'amdhsa: code object version (default 5)' },
  { name: 'llvm', kind: 'string', value: '16|19', help: "amdhsa: the LLVM generation the layout follows (default 19, today's)" },
  { name: 'bits', kind: 'string', value: '64|32', help: 'amd-cl2: pointer and setup-argument width (default 64)' },
  { name: 'driver', kind: 'string', value: 'new|old', help: 'amd-cl2: AMD driver generation, new from 191205 (default new)' },
  { name: 'use', kind: 'string', value: '<features>', help: 'amd-cl2: comma-separated setup,args,enqueue,generic (default args)' },
  { name: 'gfx9', kind: 'boolean', help: 'amd-cl2: user SGPR counts of GFX9 (Vega)' },
  { name: 'metadata', kind: 'string', value: 'modern|legacy', help: 'llvm: function-attached kernel_arg_* (default) or the !opencl.kernels node' },
  { name: 'triple', kind: 'string', value: '<triple>', help: `llvm: ${TRIPLES.join(' | ')} (default spir64-unknown-unknown)` },
  { name: 'kernel-stubs', kind: 'boolean', help: 'llvm: split each kernel into an entry and a __clang_ocl_kern_imp_ body' },
  { name: 'kernel-arg-info', kind: 'boolean', help: 'llvm: also emit !kernel_arg_name (as clang -cl-kernel-arg-info)' },
  { name: 'group-tables', kind: 'string', value: 'pointer|ulong', help: "tinytc --format opencl-c: group tables as 'global T*global*' (default) or 'global ulong*' cast back in the body (for NVIDIA)" },
  { name: 'dope-order', kind: 'string', value: 'interleaved|shapes-first', help: 'tinytc: extra memref arguments per mode (v0.3, default) or all shapes then strides (v0.4)' },
  { name: 'cluster-pod-kernel-args', kind: 'string', value: '0|1', help: 'vulkan: collect POD arguments into one struct (default 1)' },
  { name: 'pod-ubo', kind: 'boolean', help: 'vulkan: POD arguments in a uniform buffer' },
  { name: 'pod-pushconstant', kind: 'boolean', help: 'vulkan: POD arguments in push constants' },
  { name: 'pod-args', kind: 'string', value: 'ssbo|auto', help: "vulkan: ssbo (the seed's default) or auto (today's clspv: push constant, UBO, SSBO)" },
  { name: 'max-pushconstant-size', kind: 'string', value: '<bytes>', help: 'vulkan: push-constant limit (default 128)' },
  { name: 'constant-args-ubo', kind: 'boolean', help: 'vulkan: constant pointer arguments in uniform buffers' },
  { name: 'distinct-kernel-descriptor-sets', kind: 'boolean', help: 'vulkan: one descriptor set per kernel' },
  { name: 'module-constants-in-storage-buffer', kind: 'boolean', help: 'vulkan: module-scope constants in one storage buffer' },
  { name: 'samplermap', kind: 'string', value: '<file>', help: 'vulkan: sampler map (set 0, bindings in file order)' },
  { name: 'global-offset', kind: 'boolean', help: 'vulkan: support get_global_offset (spec constants)' },
  { name: 'global-offset-push-constant', kind: 'boolean', help: 'vulkan: global offset as a module push constant' },
  { name: 'work-dim', kind: 'string', value: '0|1', help: 'vulkan: work_dim spec constant for get_work_dim (default 1)' },
  { name: 'long-vector', kind: 'boolean', help: 'vulkan: allow vectors of 8 and 16' },
  { name: 'binding-scheme', kind: 'string', value: 'seed|clspv', help: "vulkan: bindings per kernel (seed) or keyed by position across kernels (today's clspv)" },
  { name: 'no-8bit-storage', kind: 'list', value: 'ssbo,ubo,pushconstant', help: 'vulkan: storage classes without 8-bit access' },
  { name: 'no-16bit-storage', kind: 'list', value: 'ssbo,ubo,pushconstant', help: 'vulkan: storage classes without 16-bit access' },
  { name: 'output', short: 'o', kind: 'string', value: '<file>', help: 'write the output to a file (required for --format spirv, which is binary)' },
  { name: 'float-atomic-add', kind: 'boolean', help: 'vulkan --format spirv*: floating atomic adds as OpAtomicFAddEXT (devices with shaderBufferFloat32/64AtomicAdd) instead of compare-and-swap loops' },
  { name: 'physical-storage-buffers', kind: 'boolean', help: "vulkan (today's clspv, --arch=spir64): global and constant pointers as 8-byte addresses among the PODs" },
  { name: 'enable-printf', kind: 'boolean', help: "vulkan (today's clspv): printf writes to a printf buffer described by reflection data" },
  { name: 'printf-buffer-size', kind: 'string', value: '<bytes>', help: 'vulkan: printf buffer size (default 1048576)' },
  { name: 'color', kind: 'boolean', help: 'colour diagnostics (default: when stderr is a terminal)' },
] satisfies OptionSpec[]).map((o): OptionSpec => (CLSPV_OPTIONS.has(o.name) ? { ...o, singleDash: true } : o));

/** A checked `lower` command line: the input, its text and the options to lower it with. */
export interface PreparedLower {
  readonly path: string;
  readonly text: string;
  readonly format: string;
  readonly color: boolean;
  readonly options: LowerOptions;
  /** `-o`: the file the output goes to (binary formats need one). */
  readonly outPath?: string;
  /** `-w`: errors only. */
  readonly noWarnings?: boolean;
  /** `-Werror`: a warning fails the command. */
  readonly warningsAreErrors?: boolean;
}

export function lowerCommand(argv: readonly string[], io: CliIO): number {
  const prepared = prepareLower(argv, io);
  if (typeof prepared === 'number') return prepared;
  // In pieces: a JSON plan of hundreds of thousands of kernels can be longer than one string may be.
  const result = lower(prepared.path, prepared.text, includeHost(io), { ...prepared.options, chunked: true });
  const shown = prepared.noWarnings ? result.diagnostics.filter((d) => d.severity === 'error') : result.diagnostics;
  if (shown.length) io.stderr(formatDiagnostics(shown, { color: prepared.color }));
  if (result.binary === undefined && result.chunks === undefined) return 1;
  if (prepared.warningsAreErrors && shown.length) return 1;
  if (prepared.outPath === undefined) {
    if (result.binary !== undefined) io.stdout(result.binary as unknown as string);
    else writeInBatches(result.chunks!, io);
    return 0;
  }
  if (!io.writeFile) throw new UsageError('this environment cannot write files: leave out -o');
  try {
    io.writeFile(prepared.outPath, result.binary ?? result.chunks!.join(''));
  } catch (e) {
    io.stderr(`kernarg: error: cannot write '${prepared.outPath}': ${(e as Error).message}
`);
    return 1;
  }
  return 0;
}

/** Writes pieces joined into writes of about 1 MiB (one system call per piece would cost more than the join). */
function writeInBatches(chunks: readonly string[], io: CliIO): void {
  let batch: string[] = [];
  let length = 0;
  for (const c of chunks) {
    batch.push(c);
    length += c.length;
    if (length >= 1 << 20) {
      io.stdout(batch.join(''));
      batch = [];
      length = 0;
    }
  }
  if (batch.length) io.stdout(batch.join(''));
}

/** Parses and checks a `lower` command line (usage errors throw); returns an exit code when the input cannot be read. */
export function prepareLower(argv: readonly string[], io: CliIO): PreparedLower | number {
  const args = parseArgs(argv, LOWER_OPTIONS);
  if (args.positionals.length !== 1) throw new UsageError(args.positionals.length ? 'lower takes exactly one input file' : 'lower needs an input file');
  const path = args.positionals[0];
  const language = args.values.get('language') as string | undefined;
  if (language !== undefined && language !== 'cl' && language !== 'ir') throw new UsageError(`-x takes cl (OpenCL C) or ir (tinytc), not '${language}'`);
  if (path === '-' && language === undefined) throw new UsageError("reading standard input ('-') needs -x cl or -x ir");
  const isIr = language ? language === 'ir' : path.endsWith('.ir');
  const target = args.values.get('target') as string | undefined;
  if (!target) throw new UsageError('lower needs --target');
  if (!(TARGETS as readonly string[]).includes(target)) throw new UsageError(`unknown target '${target}' (available: ${TARGETS.join(', ')})`);
  const format = (args.values.get('format') as string | undefined) ?? 'table';
  if (!FORMATS[target as TargetName].includes(format)) throw new UsageError(`format '${format}' is not available for target '${target}' (choose from ${FORMATS[target as TargetName].join(', ')})`);
  const std = clStd(args.values.get('cl-std') as string | undefined);
  const arch = args.values.get('arch') as string | undefined;
  if (arch !== undefined && arch !== 'spir' && arch !== 'spir64') throw new UsageError(`unknown --arch '${arch}' (choose spir or spir64)`);
  const codeObject = args.values.get('code-object') as string | undefined;
  if (codeObject !== undefined && codeObject !== '4' && codeObject !== '5' && codeObject !== '6') throw new UsageError(`--code-object takes 4, 5 or 6, not '${codeObject}'`);
  const amdLlvm = args.values.get('llvm') as string | undefined;
  if (amdLlvm !== undefined && amdLlvm !== '16' && amdLlvm !== '19') throw new UsageError(`--llvm takes 16 or 19, not '${amdLlvm}'`);
  const bits = args.values.get('bits') as string | undefined;
  if (bits !== undefined && bits !== '32' && bits !== '64') throw new UsageError(`--bits takes 32 or 64, not '${bits}'`);
  const driver = args.values.get('driver') as string | undefined;
  if (driver !== undefined && driver !== 'new' && driver !== 'old') throw new UsageError(`--driver takes new or old, not '${driver}'`);
  const useText = args.values.get('use') as string | undefined;
  const use = useText === undefined ? undefined : useText === '' ? [] : useText.split(',');
  for (const u of use ?? []) if (!(AMD_CL2_FEATURES as readonly string[]).includes(u)) throw new UsageError(`--use: unknown feature '${u}' (choose from ${AMD_CL2_FEATURES.join(', ')})`);
  const metadata = args.values.get('metadata') as string | undefined;
  if (metadata !== undefined && metadata !== 'modern' && metadata !== 'legacy') throw new UsageError(`--metadata takes modern or legacy, not '${metadata}'`);
  const triple = args.values.get('triple') as string | undefined;
  if (triple !== undefined && !(TRIPLES as readonly string[]).includes(triple)) throw new UsageError(`unknown --triple '${triple}' (choose from ${TRIPLES.join(', ')})`);
  const zeroOne = (name: string): boolean | undefined => {
    const v = args.values.get(name) as string | undefined;
    if (v === undefined) return undefined;
    if (v !== '0' && v !== '1') throw new UsageError(`--${name} takes 0 or 1, not '${v}'`);
    return v === '1';
  };
  const storageList = (name: string) => {
    const list = ((args.values.get(name) as string[] | undefined) ?? []).flatMap((v) => v.split(',')).filter(Boolean);
    for (const x of list) if (!['ssbo', 'ubo', 'pushconstant'].includes(x)) throw new UsageError(`--${name}: unknown storage class '${x}' (ssbo, ubo, pushconstant)`);
    return list as ('ssbo' | 'ubo' | 'pushconstant')[];
  };
  const maxPcText = args.values.get('max-pushconstant-size') as string | undefined;
  if (maxPcText !== undefined && !/^\d+$/.test(maxPcText)) throw new UsageError(`--max-pushconstant-size takes a byte count, not '${maxPcText}'`);
  const printfSizeText = args.values.get('printf-buffer-size') as string | undefined;
  if (printfSizeText !== undefined && !/^\d+$/.test(printfSizeText)) throw new UsageError(`--printf-buffer-size takes a byte count, not '${printfSizeText}'`);
  const podArgs = args.values.get('pod-args') as string | undefined;
  if (podArgs !== undefined && podArgs !== 'ssbo' && podArgs !== 'auto') throw new UsageError(`--pod-args takes ssbo or auto, not '${podArgs}'`);
  const bindingScheme = args.values.get('binding-scheme') as string | undefined;
  if (bindingScheme !== undefined && bindingScheme !== 'seed' && bindingScheme !== 'clspv') throw new UsageError(`--binding-scheme takes seed or clspv, not '${bindingScheme}'`);
  let samplerMap: number[] | undefined;
  const samplerMapPath = args.values.get('samplermap') as string | undefined;
  if (samplerMapPath !== undefined) {
    const read = readText(io, samplerMapPath);
    if ('error' in read) {
      io.stderr(`kernarg: error: cannot read sampler map '${escapeControls(samplerMapPath)}': ${read.error}\n`);
      return 1;
    }
    const r = parseSamplerMap(read.text);
    if ('message' in r) {
      io.stderr(`${escapeControls(samplerMapPath)}:${r.line}:1: error: ${escapeControls(r.message)}\n`);
      return 1;
    }
    samplerMap = r.masks;
  }
  const vulkanOpts = ['cluster-pod-kernel-args', 'pod-ubo', 'pod-pushconstant', 'pod-args', 'max-pushconstant-size', 'constant-args-ubo', 'distinct-kernel-descriptor-sets',
    'module-constants-in-storage-buffer', 'samplermap', 'global-offset', 'global-offset-push-constant', 'work-dim', 'long-vector', 'binding-scheme', 'no-8bit-storage', 'no-16bit-storage',
    'physical-storage-buffers', 'enable-printf', 'printf-buffer-size'];
  for (const opt of vulkanOpts) if (args.values.has(opt) && target !== 'vulkan') throw new UsageError(`--${opt} applies to --target vulkan only`);
  // Options that contradict each other are usage errors (exit 2), in clspv's words; the library reports them too.
  if (args.values.get('pod-ubo') && args.values.get('pod-pushconstant')) throw new UsageError('POD arguments can only be in either uniform buffers or push constants (--pod-ubo, --pod-pushconstant)');
  if (args.values.get('pod-pushconstant') && args.values.get('cluster-pod-kernel-args') === '0') throw new UsageError('POD arguments must be clustered to be passed as push constants (--pod-pushconstant, --cluster-pod-kernel-args=0)');
  const targetOnly: [string, string][] = [['metadata', 'llvm'], ['triple', 'llvm'], ['kernel-stubs', 'llvm'], ['kernel-arg-info', 'llvm'], ['code-object', 'amdhsa'], ['llvm', 'amdhsa'], ['bits', 'amd-cl2'], ['driver', 'amd-cl2'], ['use', 'amd-cl2'], ['gfx9', 'amd-cl2'], ];
  if (args.values.has('arch') && target !== 'opencl' && target !== 'vulkan') throw new UsageError('--arch applies to --target opencl or vulkan only');
  for (const [opt, t] of targetOnly) if (args.values.has(opt) && target !== t) throw new UsageError(`--${opt} applies to --target ${t} only`);
  if (!language && !path.endsWith('.cl') && !path.endsWith('.ir')) throw new UsageError(`cannot tell the language of '${path}': use a .cl (OpenCL C) or .ir (tinytc) file, or -x cl`);
  const dopeOrder = args.values.get('dope-order') as string | undefined;
  if (dopeOrder !== undefined && dopeOrder !== 'interleaved' && dopeOrder !== 'shapes-first') throw new UsageError(`--dope-order takes interleaved or shapes-first, not '${dopeOrder}'`);
  if (dopeOrder !== undefined && !isIr) throw new UsageError('--dope-order applies to tinytc (.ir) input only');
  const groupTables = args.values.get('group-tables') as string | undefined;
  if (groupTables !== undefined && groupTables !== 'pointer' && groupTables !== 'ulong') throw new UsageError(`--group-tables takes pointer or ulong, not '${groupTables}'`);
  if (groupTables !== undefined && (!isIr || format !== 'opencl-c')) throw new UsageError('--group-tables applies to tinytc (.ir) input with --format opencl-c only');
  if (format === 'opencl-c' && !isIr) throw new UsageError('--format opencl-c needs tinytc input (.ir)');
  if (format.startsWith('spirv') && !isIr) throw new UsageError(`--format ${format} needs tinytc input (.ir)`);
  const outPath = args.values.get('output') as string | undefined;
  // Binary never goes to stdout: a terminal would get garbage and a pipe is better served by a file.
  if (format === 'spirv' && outPath === undefined) throw new UsageError('--format spirv is binary: give -o <file>');
  if (args.values.has('float-atomic-add') && !format.startsWith('spirv')) throw new UsageError('--float-atomic-add applies to --format spirv and spirv-asm only');
  const read = path === '-' ? readStdinText(io) : readText(io, path);
  const color = (args.values.get('color') as boolean | undefined) ?? io.color;
  if ('error' in read) {
    io.stderr(`kernarg: error: cannot read '${escapeControls(path)}': ${read.error}\n`);
    return 1;
  }
  const text = read.text;
  const commandLine = args.sequence.filter(([o]) => o === 'define' || o === 'undefine').map(([o, d]) => commandLineMacro(o as 'define' | 'undefine', d));
  const kernelArgInfo = (args.values.get('kernel-arg-info') as boolean | undefined) ?? (target === 'llvm' ? (args.values.get('cl-kernel-arg-info') as boolean | undefined) : undefined);
  const flags = { noWarnings: args.values.get('no-warnings') === true, warningsAreErrors: args.values.get('Werror') === true };
  return { path: path === '-' ? '<stdin>' : path, text, format, color, ...flags, ...(outPath !== undefined ? { outPath } : {}), options: {
    target: target as TargetName,
    format,
    language: isIr ? 'ir' : 'cl',
    std,
    includeDirs: (args.values.get('include') as string[] | undefined) ?? [],
    commandLine,
    fastRelaxedMath: args.values.get('cl-fast-relaxed-math') as boolean | undefined,
    arch: arch as 'spir' | 'spir64' | undefined,
    dopeOrder: dopeOrder as 'interleaved' | 'shapes-first' | undefined,
    groupTables: groupTables as 'pointer' | 'ulong' | undefined,
    floatAtomicAdd: args.values.get('float-atomic-add') as boolean | undefined,
    codeObject: codeObject === undefined ? undefined : (Number(codeObject) as 4 | 5 | 6),
    amdLlvm: amdLlvm === undefined ? undefined : (Number(amdLlvm) as 16 | 19),
    vulkan: {
      clusterPodKernelArgs: zeroOne('cluster-pod-kernel-args'),
      podUbo: args.values.get('pod-ubo') as boolean | undefined,
      podPushConstant: args.values.get('pod-pushconstant') as boolean | undefined,
      podArgs: podArgs as 'ssbo' | 'auto' | undefined,
      maxPushConstantSize: maxPcText === undefined ? undefined : Number(maxPcText),
      constantArgsUbo: args.values.get('constant-args-ubo') as boolean | undefined,
      distinctKernelDescriptorSets: args.values.get('distinct-kernel-descriptor-sets') as boolean | undefined,
      moduleConstantsInStorageBuffer: args.values.get('module-constants-in-storage-buffer') as boolean | undefined,
      samplerMap,
      globalOffset: args.values.get('global-offset') as boolean | undefined,
      globalOffsetPushConstant: args.values.get('global-offset-push-constant') as boolean | undefined,
      workDim: zeroOne('work-dim'),
      longVector: args.values.get('long-vector') as boolean | undefined,
      arch: arch as 'spir' | 'spir64' | undefined,
      bindingScheme: bindingScheme as 'seed' | 'clspv' | undefined,
      no8bitStorage: storageList('no-8bit-storage'),
      no16bitStorage: storageList('no-16bit-storage'),
      physicalStorageBuffers: args.values.get('physical-storage-buffers') as boolean | undefined,
      enablePrintf: args.values.get('enable-printf') as boolean | undefined,
      printfBufferSize: printfSizeText === undefined ? undefined : Number(printfSizeText),
    },
    llvm: {
      triple: triple as Triple | undefined,
      metadata: metadata as 'modern' | 'legacy' | undefined,
      kernelStubs: args.values.get('kernel-stubs') as boolean | undefined,
      kernelArgInfo,
    },
    amdCl2: {
      bits: bits === undefined ? undefined : (Number(bits) as 32 | 64),
      driver: driver as 'new' | 'old' | undefined,
      use: use as AmdCl2Feature[] | undefined,
      gfx9: args.values.get('gfx9') as boolean | undefined,
    },
  } };
}

/** clang's -cl-std spellings: CL1.2, cl1.2, CL (1.0). */
function clStd(text: string | undefined): ClStd | undefined {
  if (text === undefined) return undefined;
  const up = text.toUpperCase();
  const std = up === 'CL' ? 'CL1.0' : up;
  if (!(CL_STDS as readonly string[]).includes(std)) throw new UsageError(`unknown -cl-std '${text}' (choose from ${CL_STDS.join(', ')})`);
  return std as ClStd;
}

/** One `-D name[=value]`, `-D 'F(x, y)=body'` or `-U name`, checked: a name (with parameters for -D), a value on one line. */
function commandLineMacro(option: 'define' | 'undefine', text: string): CommandLineMacro {
  if (option === 'undefine') {
    if (!/^[A-Za-z_]\w*$/.test(text)) throw new UsageError(`'-U ${text}': macro name must be an identifier`);
    return { undefine: text };
  }
  const eq = text.indexOf('=');
  const name = eq < 0 ? text : text.slice(0, eq);
  if (!/^[A-Za-z_]\w*(\(\s*(?:(?:[A-Za-z_]\w*|\.\.\.)(?:\s*,\s*(?:[A-Za-z_]\w*|\.\.\.))*)?\s*\))?$/.test(name)) {
    throw new UsageError(`'-D ${text}': macro name must be an identifier, or a function-like macro 'NAME(params)'`);
  }
  const value = eq < 0 ? undefined : text.slice(eq + 1);
  if (value !== undefined && /[\r\n]/.test(value)) throw new UsageError(`'-D ${name}': the value must be on one line`);
  return { define: name, value };
}
