// How the execution tests report a device result that differs from the JS reference (support/tinytc-exec.ts): every
// differing element counted and the first few listed, and after a difference the launch and the reference run again
// from the same inputs, so that a rare wrong element says which side it came from (one GEMM element, once, on PoCL
// under load, was a value one product short; the report named neither its shape nor its side).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  againMessage,
  arrayDifferences,
  assertSameArrays,
  differenceMessage,
  elementAt,
} from './support/tinytc-exec.js';

const device = {
  A: { data: Float32Array.of(1, 2, 3) },
  C: { data: Float32Array.of(0.5, NaN, 4.2627, 7, 1e-7) },
  n: Int32Array.of(3, 4),
};
const reference = {
  A: { data: Float32Array.of(1, 2, 3) },
  C: { data: Float32Array.of(0.5, NaN, 3.9894, 7.5, 0) },
  n: Int32Array.of(3, 5),
};

test('every differing element is found: floats beyond the tolerance, integers exactly, NaN against NaN equal', () => {
  const { differences, elements } = arrayDifferences(device, reference, 1e-5);
  assert.equal(elements, 10);
  assert.deepEqual(
    differences.map((d) => `${d.path}[${d.index}]`),
    ['C.data[2]', 'C.data[3]', 'n[1]'],
  );
  // 1e-7 against 0 is within 1e-5 × max(1, |0|); a tolerance of 0 counts it too.
  assert.equal(arrayDifferences(device, reference, 0).differences.length, 4);
});

test('the message keeps the first difference first, then counts them and lists where they lie', () => {
  const { differences, elements } = arrayDifferences(device, reference, 1e-5);
  const m = differenceMessage('@odd', differences, elements);
  assert.match(m, /^@odd: C\.data\[2\] is 4\.26\d* on the device, 3\.98\d* in the reference /);
  assert.match(m, /\(3 of 10 elements differ: C\.data\[2\], C\.data\[3\], n\[1\]\)$/);
  assert.throws(() => assertSameArrays(device, reference, 1e-5, '@odd'), { message: m });
  assert.doesNotThrow(() => assertSameArrays(device, device, 0, '@odd'));
  // More than eight: the first eight and an ellipsis.
  const many = arrayDifferences({ x: new Float64Array(20).fill(1) }, { x: new Float64Array(20) }, 1e-5);
  assert.match(differenceMessage('@f', many.differences, many.elements), /\(20 of 20 .*x\[7\], …\)$/);
});

test('the second run names the side whose value moved', () => {
  const [d] = arrayDifferences(device, reference, 1e-5).differences;
  assert.equal(elementAt(device, d.path, d.index), d.device);
  assert.equal(elementAt(device, 'missing', 0), undefined);
  const deviceMoved = againMessage(d, reference.C.data[2], d.reference);
  assert.match(deviceMoved, /the device gives 3\.98\d* \(NOT the same\), the reference 3\.98\d* \(the same\)$/);
  const referenceMoved = againMessage(d, d.device, device.C.data[2]);
  assert.match(referenceMoved, /the device gives 4\.26\d* \(the same\), the reference 4\.26\d* \(NOT the same\)$/);
});
