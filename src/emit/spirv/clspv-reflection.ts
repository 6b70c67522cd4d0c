// NonSemantic.ClspvReflection as the SPIR-V writer and reader use it: the opcodes come from the
// shared table (clspv-instructions.ts); the import name is the one clspv writes.
import { CLSPV_REFLECTION, type ClspvReflectionName } from './clspv-instructions.js';

export const CLSPV_REFLECTION_IMPORT = 'NonSemantic.ClspvReflection.5';

/** Instruction numbers by name. */
export const Reflection = Object.fromEntries(Object.entries(CLSPV_REFLECTION).map(([name, i]) => [name, i.opcode])) as {
  readonly [K in ClspvReflectionName]: (typeof CLSPV_REFLECTION)[K]['opcode'];
};
