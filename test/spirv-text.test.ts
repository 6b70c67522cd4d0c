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
