import type { SpirvBuilder } from '../../emit/spirv/builder.js';
import type { FunctionBuilder } from '../../emit/spirv/function.js';
import type { ScalarTypeName } from '../../frontend/tinytc/ast.js';
import type { SpirvFlavour } from './flavour.js';

/**
 * The part of gen.ts's Gen that numbers.ts and math.ts use: named here so that Gen, which converts
 * through numbers.ts, and they do not import each other.
 */
export interface NumberGen {
  readonly b: SpirvBuilder;
  readonly f: FunctionBuilder;
  readonly flavour: SpirvFlavour;
  readonly i32t: number;
  readonly boolt: number;
  type(t: ScalarTypeName): number;
  u32(n: number): number;
  constant(t: ScalarTypeName, v: number | bigint): number;
  convert(a: number, from: ScalarTypeName, to: ScalarTypeName): number;
}
