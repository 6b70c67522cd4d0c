import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { lower } from '../../../src/lower.js';
import { readSpirv } from '../../../src/readers/spirv.js';
import { readShaderInterface } from '../../../src/readers/spirv-shader.js';

// Fuzz target: the SPIR-V reader. Any bytes give a plan or KA71xx diagnostics, never an exception
// or a hang. An input with the magic number is read as it is; any other input edits a valid
// module — kernarg's own vulkan SPIR-V of the tinytc-spirv fixture (clspv reflection, push
// constants, buffers) or, for an input whose last byte is odd, clang-22's OpenCL SPIR-V of
// structs and unions by value (ByVal parameters, CPacked, Alignment) — so mutations reach the
// type, decoration and reflection readers of both kinds of entry point.
const IR = readFileSync(join(import.meta.dirname, '..', '..', 'fixtures', 'tinytc-spirv', 'input.ir'), 'utf8');
const SHADER = lower('k.ir', IR, { readFile: () => undefined }, { target: 'vulkan', format: 'spirv' }).binary!;
const KERNEL = new Uint8Array(readFileSync(join(import.meta.dirname, '..', '..', 'readers', 'spirv', 'by-value.spv')));

function edited(data: Uint8Array): Uint8Array {
  const BASE = data.length > 0 && data[data.length - 1] % 2 === 1 ? KERNEL : SHADER;
  const out = BASE.slice(
    0,
    data.length > 0 && data[0] % 4 === 1
      ? 20 + 4 * ((((data[1] ?? 0) << 8) | (data[2] ?? 0)) % (BASE.length / 4 - 5))
      : BASE.length,
  );
  // Each 5 bytes: a word index and a byte to write into it (a word count, an id, an opcode, an operand).
  for (let i = 3; i + 4 < data.length; i += 5) {
    const word = ((data[i] << 8) | data[i + 1]) % (out.length / 4);
    out[4 * word + (data[i + 2] % 4)] = data[i + 3];
  }
  return out;
}

export function fuzz(data: Uint8Array): void {
  const magic = data.length >= 4 && data[0] === 0x03 && data[1] === 0x02 && data[2] === 0x23 && data[3] === 0x07;
  const r = readSpirv(magic ? data : edited(data), 'fuzz.spv');
  for (const d of r.diagnostics)
    if (!/^KA71\d\d$/.test(d.code)) throw new Error(`a diagnostic outside the reader's range: ${d.code} ${d.message}`);
  if (!r.plan && r.diagnostics.length === 0) throw new Error('neither a plan nor a diagnostic');
  // What run and gen-ts read beside a shader's plan (spec constant types and defaults, the work-group size's sources).
  if (r.plan?.target === 'vulkan') {
    const s = readShaderInterface(magic ? data : edited(data), 'fuzz.spv');
    for (const d of s.diagnostics)
      if (d.code !== 'KA7120') throw new Error(`the shader interface gave ${d.code} ${d.message}`);
    if (!s.entries && s.diagnostics.length === 0) throw new Error('no shader interface and no diagnostic');
  }
}
