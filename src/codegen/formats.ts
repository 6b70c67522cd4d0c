// The formats that print a tinytc program's bodies, one row per (target, format). They belong to
// the code generator, not to the target records: a target renders only what its plan and the
// KernelModule say, so it needs no code generator, and a new output of the code generator (OpenCL
// SPIR-V, say) is one row here. `lower` renders these rows; `FORMATS` lists them after each
// target's own formats.
import type { CompiledTinytc } from './compile-tinytc.js';
import type { PrintedCode } from './codegen-refusals.js';
import { emitTinytcOpenCLC } from './opencl-c/index.js';
import { emitTinytcSpirv } from './spirv/index.js';
import { renderOpenclSpirv } from './spirv/opencl-module.js';
import { disassemble } from '../emit/spirv/disassemble.js';
import { type AbiPlan, TARGET_RECORDS, type TargetName } from '../targets/index.js';
import type { LowerOptions } from '../targets/options.js';
import type { FormatName } from '../targets/format-names.js';

type PlanOf<T extends TargetName> = Extract<AbiPlan, { readonly target: T }>;

/** One format of one target, printed from the compiled program and the target's plan of it (text, or bytes for binary formats). */
interface CodegenFormatOf<T extends TargetName> {
  readonly target: T;
  readonly format: FormatName;
  /** The language printed: what codegenRefusals checks before printing. */
  readonly code: PrintedCode;
  render(compiled: CompiledTinytc, plan: PlanOf<T>, options: LowerOptions): string | Uint8Array;
}

/** A row of the table: its `target` says which plan its `render` takes. */
export type CodegenFormat = { [T in TargetName]: CodegenFormatOf<T> }[TargetName];

const bytesOf = (words: Uint32Array) => new Uint8Array(words.buffer, words.byteOffset, words.byteLength);

/** Every format that prints tinytc bodies, so needs tinytc (.ir) input. */
export const CODEGEN_FORMATS: readonly CodegenFormat[] = [
  {
    target: 'opencl',
    format: 'opencl-c',
    code: 'opencl-c',
    render: (compiled, _plan, o) => emitTinytcOpenCLC(compiled, { groupTables: o.tinytc?.groupTables }),
  },
  // tinytc's own output since v0.4: an OpenCL Kernel module (Physical64; lower() refuses --arch spir).
  {
    target: 'opencl',
    format: 'spirv',
    code: 'opencl-spirv',
    render: (compiled) => renderOpenclSpirv('spirv', compiled),
  },
  {
    target: 'opencl',
    format: 'spirv-asm',
    code: 'opencl-spirv',
    render: (compiled) => renderOpenclSpirv('spirv-asm', compiled),
  },
  {
    target: 'vulkan',
    format: 'spirv',
    code: 'vulkan-spirv',
    render: (compiled, plan, o) =>
      bytesOf(emitTinytcSpirv(compiled, plan, { floatAtomicAdd: o.vulkan?.floatAtomicAdd })),
  },
  {
    target: 'vulkan',
    format: 'spirv-asm',
    code: 'vulkan-spirv',
    render: (compiled, plan, o) =>
      disassemble(emitTinytcSpirv(compiled, plan, { floatAtomicAdd: o.vulkan?.floatAtomicAdd })),
  },
];

/** The row that prints `format` for `target`, or undefined (a format of the target's own, or none). */
export function codegenFormat(target: string, format: string): CodegenFormat | undefined {
  return CODEGEN_FORMATS.find((r) => r.target === target && r.format === format);
}

/** Prints a row's format for a plan of its target. */
export function renderCodegenFormat(
  row: CodegenFormat,
  compiled: CompiledTinytc,
  plan: AbiPlan,
  options: LowerOptions,
): string | Uint8Array {
  if (plan.target !== row.target)
    throw new RangeError(`--format ${row.format} of target '${row.target}' given a plan of '${plan.target}'`);
  // The check above is what TypeScript cannot see across the union of rows: the plan is the row's.
  return (row.render as (compiled: CompiledTinytc, plan: AbiPlan, options: LowerOptions) => string | Uint8Array)(
    compiled,
    plan,
    options,
  );
}

/** One value per registered target. */
function perTarget<V>(value: (name: TargetName, own: readonly FormatName[]) => V): Readonly<Record<TargetName, V>> {
  const out: Partial<Record<TargetName, V>> = {};
  for (const t of TARGET_RECORDS) out[t.name] = value(t.name, t.formats);
  return out as Record<TargetName, V>;
}

/** The formats that print tinytc bodies, per target. */
export const TINYTC_FORMATS = perTarget((name) =>
  CODEGEN_FORMATS.filter((r) => r.target === name).map((r) => r.format),
);

/** Each target's formats: its own (`table` first, the default), then the code generator's. */
export const FORMATS: Readonly<Record<TargetName, readonly FormatName[]>> = perTarget((name, own) => [
  ...own,
  ...TINYTC_FORMATS[name],
]);
