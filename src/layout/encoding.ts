// How a scalar's bytes encode its value: the one place a scalar name becomes an encoding. Value
// layouts carry the result as data, so packers and readers never look at type names.
import { SCALAR_FACTS, type ScalarEncoding, isIntegerEncoding } from '../types/scalar-facts.js';
import type { ScalarName } from '../types/types.js';

export type { ScalarEncoding };

/**
 * The scalars a value layout may name: OpenCL C's, and `handle` for pointers, images, samplers
 * and other handles (an unsigned address or handle of the data layout's width).
 */
export type LayoutScalarName = ScalarName | 'handle';

/** The encoding of a scalar by its OpenCL C name (an enum by its underlying type's). */
export function scalarEncoding(name: LayoutScalarName): ScalarEncoding {
  return name === 'handle' ? 'uint' : SCALAR_FACTS[name].encoding;
}

/** Whether the encoding is an integer one (bool included). */
export const isInteger = isIntegerEncoding;
