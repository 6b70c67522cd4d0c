// A GEMM case printed under one variant and knob spelling, for the tests that read the printed code (tile, lvec).
import type { BlasPolicy, GemmVariantName } from '../../src/codegen/blas-policy.js';
import { compileTinytc } from '../../src/codegen/compile-tinytc.js';
import { emitTinytcSpirv } from '../../src/codegen/spirv/index.js';
import { parseSpirvKnobs } from '../../src/codegen/spirv-knobs.js';
import { DiagnosticBag } from '../../src/diagnostics/diagnostic.js';
import { SourceFile } from '../../src/diagnostics/source.js';
import { disassemble } from '../../src/emit/spirv/disassemble.js';
import { SPIR64 } from '../../src/layout/data-layout.js';
import { withAddressTables } from '../../src/targets/vulkan/address-tables.js';
import { lowerVulkan } from '../../src/targets/vulkan/lower.js';

/** The case's SPIR-V (Vulkan's plan, address tables), disassembled, with the GEMM under `variant` and SPIR-V `knobs`. */
export function spirvText(c: { readonly ir: string }, variant: GemmVariantName, knobs: string): string {
  const fe = compileTinytc(new SourceFile('x.ir', c.ir), { layout: SPIR64 });
  const plan = withAddressTables(lowerVulkan(fe.compiled!.module, {}, new DiagnosticBag()))!;
  const blas: Partial<BlasPolicy> = { gemm: [{ variant }], spirv: parseSpirvKnobs(knobs) };
  return disassemble(emitTinytcSpirv(fe.compiled!, plan, { blas }));
}

/** How many times `re` (global) matches in `text`. */
export const count = (text: string, re: RegExp) => text.match(re)?.length ?? 0;
