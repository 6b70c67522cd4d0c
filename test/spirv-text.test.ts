// The spirv-asm text of constants: every float bit pattern (normal, subnormal, zero, infinity,
// NaN) and integer prints as spirv-dis prints it.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { SpirvBuilder } from '../src/emit/spirv/builder.js';
import { disassemble } from '../src/emit/spirv/disassemble.js';
import { formatHexFloat } from '../src/emit/spirv/float-text.js';
import { requireTool } from './support/tools.js';

const f32 = fc.oneof(
  fc.integer({ min: 0, max: 0xffffffff }).map(BigInt),
  fc.float().map((x) => BigInt(new Uint32Array(Float32Array.of(x).buffer)[0])),
);
const f64 = fc.oneof(
  fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }),
  fc.double().map((x) => new BigUint64Array(Float64Array.of(x).buffer)[0]),
);

test('float and integer constants (and their friendly names) print as spirv-dis prints them', (t) => {
  const dis = requireTool(t, ['spirv-dis']);
  if (!dis) return;
  fc.assert(
    fc.property(
      fc.array(f32, { maxLength: 40 }),
      fc.array(f64, { maxLength: 40 }),
      fc.array(fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }), { maxLength: 10 }),
      (a, b, c) => {
        const m = new SpirvBuilder();
        m.capability('Shader');
        const t32 = m.typeFloat(32);
        const t64 = m.typeFloat(64);
        const i64 = m.typeInt(64);
        for (const x of a) m.constantBits(t32, 32, x);
        for (const x of b) m.constantBits(t64, 64, x);
        for (const x of c) m.constant(i64, x, 64);
        const words = m.build();
        const dir = mkdtempSync(join(tmpdir(), 'kernarg-spvtext-'));
        try {
          writeFileSync(join(dir, 'c.spv'), words);
          const raw = spawnSync(dis, ['--raw-id', join(dir, 'c.spv')], { encoding: 'utf8' });
          assert.equal(raw.status, 0, raw.stderr);
          assert.equal(disassemble(words, { rawIds: true }), raw.stdout);
          // Friendly names spell constants by value (`%float_n0_5`, `%ulong_18446744073709551615`), made unique.
          const friendly = spawnSync(dis, [join(dir, 'c.spv')], { encoding: 'utf8' });
          assert.equal(disassemble(words), friendly.stdout);
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      },
    ),
    { numRuns: Number(process.env.KERNARG_FC_RUNS ?? 30), seed: Number(process.env.KERNARG_FC_SEED ?? 20261123) },
  );
});

/** A C `%a` float (`-0x1.5p+5`, `0x0.8p-1022`, `inf`, `nan`) as a number, read digit by digit. */
function readHexFloat(text: string): number {
  if (/^-?nan$/.test(text)) return NaN;
  if (/^-?inf$/.test(text)) return text.startsWith('-') ? -Infinity : Infinity;
  const m = /^(-?)0x([01])(?:\.([0-9a-f]+))?p([+-]\d+)$/.exec(text);
  assert.ok(m, `not a %a float: ${text}`);
  assert.ok(!m[3]?.endsWith('0'), `trailing zero digit: ${text}`);
  const frac = m[3] ? [...m[3]].reduce((acc, d, k) => acc + parseInt(d, 16) * 16 ** -(k + 1), 0) : 0;
  return (m[1] ? -1 : 1) * (Number(m[2]) + frac) * 2 ** Number(m[4]);
}

test("hexadecimal float constants (tinytc-oc's spelling) are C's %a of the value, as tinytc's lit files pin them", () => {
  const bits32 = (x: number) => BigInt(new Uint32Array(Float32Array.of(x).buffer)[0]);
  const bits64 = (x: number) => new BigUint64Array(Float64Array.of(x).buffer)[0];
  // The spellings tinytc v0.4.0's test/lit/spv/constant.ir and store.ir pin (42.42424242 as f16, f32 and f64).
  assert.equal(formatHexFloat(0x514en, 16), '0x1.538p+5');
  assert.equal(formatHexFloat(bits32(42.42424242), 32), '0x1.5364dap+5');
  assert.equal(formatHexFloat(bits64(42.42424242), 64), '0x1.5364d935bbceap+5');
  assert.equal(formatHexFloat(bits32(42), 32), '0x1.5p+5');
  assert.equal(formatHexFloat(bits64(1), 64), '0x1p+0');
  assert.equal(formatHexFloat(bits64(-0), 64), '-0x0p+0');
  assert.equal(formatHexFloat(1n, 64), '0x0.0000000000001p-1022');
  assert.equal(formatHexFloat(1n, 32), '0x1p-149');
  fc.assert(
    fc.property(f32, f64, fc.integer({ min: 0, max: 0xffff }), (a, b, h) => {
      const x32 = new Float32Array(new Uint32Array([Number(a)]).buffer)[0];
      assert.ok(Object.is(readHexFloat(formatHexFloat(a, 32)), x32), `f32 ${a.toString(16)}`);
      const x64 = new Float64Array(new BigUint64Array([b]).buffer)[0];
      assert.ok(Object.is(readHexFloat(formatHexFloat(b, 64)), x64), `f64 ${b.toString(16)}`);
      // A half's value: sign, 5 exponent bits, 10 fraction bits.
      const e = (h >> 10) & 31;
      const m = h & 1023;
      const x16 =
        (h & 0x8000 ? -1 : 1) * (e === 31 ? (m ? NaN : Infinity) : e ? (1 + m / 1024) * 2 ** (e - 15) : m * 2 ** -24);
      assert.ok(Object.is(readHexFloat(formatHexFloat(BigInt(h), 16)), x16), `f16 ${h.toString(16)}`);
    }),
    { numRuns: Number(process.env.KERNARG_FC_RUNS ?? 200), seed: Number(process.env.KERNARG_FC_SEED ?? 20261128) },
  );
});
