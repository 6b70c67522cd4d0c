// The JS reference's GEMM (test/support/tinytc-reference-blas.ts), which every GEMM execution test compares a device
// with, against a second, plain implementation (plainGemm: loops over the arrays, nothing of tinytc): the cases the
// GEMM tests run (the benchmark's batched shapes, the odd sizes with transposed and dynamic operands, batch items an
// odd number of elements apart), element for element, exactly. scripts/reference-repeat.ts runs the same comparison
// again and again in fresh processes under load, which is how the reference's rare dropped product (V8 11.3) showed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { REFERENCE_GEMM_CASES, referenceAgainstPlain } from './support/reference-gemm-check.js';

test('the reference GEMM computes, element for element, what plain loops over the arrays do', () => {
  for (const [name, c] of REFERENCE_GEMM_CASES) {
    const { elements, differing } = referenceAgainstPlain(c);
    assert.equal(elements > 0, true, name);
    assert.deepEqual(differing.slice(0, 8), [], `${name}: ${differing.length} of ${elements} elements differ`);
  }
});
