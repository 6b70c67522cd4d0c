import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { lower } from '../src/lower.js';
import { readPtx } from '../src/readers/ptx.js';
import { readSpirv } from '../src/readers/spirv.js';
import { formatDiagnostics } from '../src/diagnostics/format.js';
import type { VulkanPlan } from '../src/targets/vulkan/plan.js';
import { FIXTURES } from './support/fixtures.js';

const TINYTC = ['tinytc-kernels', 'tinytc-seed', 'tinytc-spirv'];
const host = { readFile: () => undefined };
const spirvOf = (name: string): { bytes: Uint8Array; predicted: VulkanPlan } => {
  const ir = readFileSync(join(FIXTURES, name, 'input.ir'), 'utf8');
  const r = lower('k.ir', ir, host, { target: 'vulkan', format: 'spirv' });
  assert.ok(r.binary && r.plan, `${name}: ${r.diagnostics.map((d) => d.message).join('; ')}`);
  return { bytes: r.binary, predicted: r.plan as VulkanPlan };
};

test("SPIR-V reader: kernarg's own --target vulkan --format spirv of the tinytc fixtures reads back as the plan it was emitted from", (t) => {
  let slots = 0;
  for (const name of TINYTC) {
    const { bytes, predicted } = spirvOf(name);
    const { plan, diagnostics } = readSpirv(bytes, `${name}.spv`);
    assert.deepEqual(
      diagnostics.map((d) => d.message),
      [],
      name,
    );
    const read = plan as VulkanPlan;
    assert.deepEqual(
      read.kernels.map((k) => k.name),
      predicted.kernels.map((k) => k.name),
      name,
    );
    assert.equal(read.localSize, predicted.localSize, `${name}: LocalSize`);
    assert.deepEqual(
      read.specConstants.map((s) => s.specId).sort(),
      predicted.specConstants.map((s) => s.specId).sort(),
      `${name}: spec ids`,
    );
    assert.deepEqual(read.pushConstantRange, predicted.pushConstantRange, `${name}: push-constant range`);
    for (const k of predicted.kernels) {
      const r = read.kernels.find((x) => x.name === k.name)!;
      assert.deepEqual(r.reqdWorkGroupSize, k.reqdWorkGroupSize, `${name}/${k.name}: work-group size`);
      // Every descriptor the plan binds is in the module, of the same kind (SPIR-V 1.3 lists no
      // resources per entry point, so the reader sees the module's; aliases share a binding).
      const readAt = new Map(
        r.args.filter((a) => a.descriptorSet !== undefined).map((a) => [`${a.descriptorSet}/${a.binding}`, a.argKind]),
      );
      for (const a of k.args.filter((x) => x.descriptorSet !== undefined && x.argKind !== 'local')) {
        assert.equal(
          readAt.get(`${a.descriptorSet}/${a.binding}`),
          a.argKind,
          `${name}/${k.name}/${a.name}: descriptor ${a.descriptorSet}/${a.binding}`,
        );
        slots++;
      }
      // Push-constant PODs: each at its offset in the kernel's block, the block as long as the plan's.
      const pods = k.args.filter((a) => a.argKind === 'pod_pushconstant');
      if (pods.length === 0) continue;
      const block = r.args.find((a) => a.argKind === 'pod_pushconstant' && a.typeName.startsWith(`${k.name}.`));
      assert.ok(block && block.layout?.kind === 'record', `${name}/${k.name}: its push-constant block`);
      const offsets = block.layout.kind === 'record' ? block.layout.fields.map((f) => f.offset) : [];
      for (const a of pods) {
        assert.ok(
          offsets.includes(a.offset!),
          `${name}/${k.name}/${a.name}: push constant at ${a.offset} (block has ${offsets.join(', ')})`,
        );
        slots++;
      }
      assert.equal(Math.ceil(block.layout.size / 4) * 4, k.podSize, `${name}/${k.name}: POD block size`);
    }
  }
  t.diagnostic(`${slots} descriptor and push-constant slots of ${TINYTC.length} tinytc fixtures read back equal`);
  assert.ok(slots >= 10, `only ${slots} slots compared`);
});

test('readers: truncated and bit-flipped SPIR-V and PTX give diagnostics, never an exception or a hang', () => {
  const spirv = TINYTC.map((n) => spirvOf(n).bytes);
  const ptx = TINYTC.map((n) => new TextEncoder().encode(readFileSync(join(FIXTURES, n, 'cuda.ptx.txt'), 'utf8')));
  const check = (
    read: (b: Uint8Array, p: string) => { diagnostics: readonly { code: string }[]; plan?: unknown },
    bytes: Uint8Array,
  ) => {
    const r = read(bytes, 'hostile.bin');
    assert.ok(r.plan !== undefined || r.diagnostics.length > 0, 'neither a plan nor a diagnostic');
    for (const d of r.diagnostics) assert.match(d.code, /^KA71\d\d$/);
  };
  const mutated = (inputs: Uint8Array[]) =>
    fc
      .tuple(
        fc.nat(inputs.length - 1),
        fc.nat(),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 7 })), { maxLength: 8 }),
      )
      .map(([i, cut, flips]) => {
        const src = inputs[i];
        const b = src.slice(0, src.length === 0 ? 0 : cut % (src.length + 1));
        for (const [at, bit] of flips) if (b.length > 0) b[at % b.length] ^= 1 << bit;
        return b;
      });
  fc.assert(
    fc.property(mutated(spirv), (b) => check(readSpirv, b)),
    { numRuns: 400, seed: 71_20 },
  );
  fc.assert(
    fc.property(mutated(ptx), (b) => check(readPtx, b)),
    { numRuns: 400, seed: 71_01 },
  );
  // Whole words flipped to hostile values: word counts of 0 and past the end, ids out of range.
  fc.assert(
    fc.property(
      fc.nat(spirv.length - 1),
      fc.nat(),
      fc.constantFrom(0, 0xffffffff, 0x00010000, 0xffff0000, 0x7fffffff),
      (i, at, word) => {
        const b = spirv[i].slice();
        const w = 5 + (at % Math.max(1, b.length / 4 - 5));
        new DataView(b.buffer).setUint32(4 * w, word, true);
        check(readSpirv, b);
      },
    ),
    { numRuns: 300, seed: 71_21 },
  );
});

test('readers: a malformed SPIR-V names its byte offset; a bad PTX parameter points at its line and column', () => {
  const { bytes } = spirvOf('tinytc-spirv');
  const cut = bytes.slice(0, 4 * 41 + 2);
  const r = readSpirv(cut, 'cut.spv');
  assert.deepEqual(
    r.diagnostics.map((d) => [d.code, d.message]),
    [
      [
        'KA7120',
        `malformed SPIR-V at byte ${cut.length - 2}: a SPIR-V module is whole 32-bit words; ${cut.length} bytes ` +
          `leave 2 over`,
      ],
    ],
  );
  assert.match(
    readSpirv(new Uint8Array(24), 'zero.spv').diagnostics[0].message,
    /malformed SPIR-V at byte 0: not SPIR-V: the magic number is 0x00000000/,
  );
  const words = new Uint32Array([0x07230203, 0x10300, 0, 10, 0, (9 << 16) | 17]);
  assert.match(
    readSpirv(new Uint8Array(words.buffer), 'long.spv').diagnostics[0].message,
    /^malformed SPIR-V at byte 20: instruction with opcode 17 has 9 words, past the end/,
  );
  const bad =
    '.version 7.8\n.address_size 64\n.entry k(\n\t.param .u64 k_param_0,\n\t.param .pred k_param_1\n)\n{ ret; }\n';
  const p = readPtx(new TextEncoder().encode(bad), 'bad.ptx');
  assert.equal(p.plan, undefined);
  assert.equal(
    formatDiagnostics(p.diagnostics).split('\n')[0],
    "bad.ptx:5:9: error: PTX parameter 'k_param_1' has type .pred, which a kernel parameter cannot have [KA7102]",
  );
  const size = readPtx(new TextEncoder().encode('.version 7.8\n.address_size 48\n'), 's.ptx');
  assert.equal(
    formatDiagnostics(size.diagnostics).split('\n')[0],
    's.ptx:2:15: error: .address_size must be 32 or 64, not 48 [KA7103]',
  );
  assert.equal(readPtx(new TextEncoder().encode('hello'), 'h.ptx').diagnostics[0].code, 'KA7104');
});

test('readers: a SPIR-V type that refers to an undeclared type names the byte offset of the instruction referring to it', () => {
  // Header; OpTypeInt %1 32 0 (byte 20); OpTypeVector %2 %9 4 (byte 36: %9 is not declared);
  // OpTypeStruct %3 %2 (byte 52) decorated Block, Offset 0; OpTypePointer %4 StorageBuffer %3;
  // OpVariable %4 %5 StorageBuffer; OpEntryPoint GLCompute %6 "m"; OpFunction's body names %5.
  const w = [
    0x07230203,
    0x10300,
    0,
    16,
    0,
    (4 << 16) | 21,
    1,
    32,
    0,
    (4 << 16) | 23,
    2,
    9,
    4,
    (3 << 16) | 30,
    3,
    2,
    (3 << 16) | 71,
    3,
    2,
    (5 << 16) | 72,
    3,
    0,
    35,
    0,
    (4 << 16) | 32,
    4,
    12,
    3,
    (4 << 16) | 59,
    4,
    5,
    12,
    (4 << 16) | 15,
    5,
    6,
    0x6d,
    (2 << 16) | 19,
    7,
    (3 << 16) | 33,
    8,
    7,
    (5 << 16) | 54,
    7,
    6,
    0,
    8,
    (4 << 16) | 61,
    1,
    10,
    5,
    (1 << 16) | 56,
  ];
  const r = readSpirv(new Uint8Array(new Uint32Array(w).buffer), 'undeclared.spv');
  assert.deepEqual(
    r.diagnostics.map((d) => d.message),
    [
      'malformed SPIR-V at byte 36: the instruction here refers to type %9, which the module does not declare ' +
        '(reading type %9)',
    ],
  );
});
