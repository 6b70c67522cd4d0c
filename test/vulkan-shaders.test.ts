// kernarg's own compute shaders (test/shaders/*.comp and one .hlsl: storage buffers, std140 uniforms with
// vec3 and struct members, push constants, several sets, specialization constants, a spec-sized
// work group, 64-bit types, an image) compiled by glslangValidator, launched on lavapipe through
// the runtime (VulkanShader) with generated arguments and through `kernarg run`, and compared
// with a JS reference of each shader.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { runCliWith } from '../src/cli/main.js';
import { nodeIO } from '../src/cli/node-io.js';
import { RuntimeInputError } from '../src/pack/errors.js';
import { VulkanShader } from '../src/runtime/vulkan/shader.js';
import { GLSLANG, shaderSpirv } from './support/glsl.js';
import { requireTool } from './support/tools.js';
import { testVulkan } from './support/vulkan-device.js';
import { SHADER_CASES, differences, random } from './shaders/cases.js';
import { SHADERS } from './readers/shaders.js';

test('GLSL shaders of our own run on Vulkan through VulkanShader and agree with their JS references (generated arguments)', (t) => {
  const glslang = requireTool(t, GLSLANG, ['--version']);
  if (!glslang) return;
  const ctx = testVulkan(t);
  if (!ctx) return;
  try {
    let launches = 0;
    for (const c of SHADER_CASES) {
      const spirv = shaderSpirv(c.name, glslang)!;
      if (c.refused) {
        assert.throws(
          () => new VulkanShader(ctx, spirv),
          (e: unknown) => e instanceof RuntimeInputError && c.refused!.test(e.message),
          c.name,
        );
        continue;
      }
      for (const run of c.runs) {
        const shader = new VulkanShader(ctx, spirv, run.options);
        try {
          // One pipeline, several generated argument sets: the seed makes every value.
          fc.assert(
            fc.property(fc.integer(), (seed) => {
              const args = run.args(seed);
              const r = shader.run(args, run.geometry);
              launches++;
              assert.deepEqual(run.check(args, r.args), [], `${c.name} (${run.label}), seed ${seed}`);
            }),
            { numRuns: 4, seed: 2811 },
          );
        } finally {
          shader.dispose();
        }
      }
    }
    t.diagnostic(`${SHADER_CASES.length} shaders, ${launches} launches equal to the JS references`);
  } finally {
    ctx.dispose();
  }
});

test("kernarg run <shader.spv>: arguments by the shader's names, spec constants by theirs, --global/--groups against the local size; mistakes as diagnostics", (t) => {
  const glslang = requireTool(t, GLSLANG, ['--version']);
  if (!glslang) return;
  const vk = testVulkan(t);
  if (!vk) return;
  vk.dispose();
  const dir = mkdtempSync(join(tmpdir(), 'kernarg-shader-run-'));
  const run = (argv: string[]) => {
    let out = '';
    let err = '';
    const io = { ...nodeIO(), stdout: (s: string) => (out += s), stderr: (s: string) => (err += s), color: false };
    const code = runCliWith(
      ['run', ...argv, ...(process.env.KERNARG_VK_DEVICE ? ['--device', process.env.KERNARG_VK_DEVICE] : [])],
      io,
    );
    return { code, out, err };
  };
  try {
    const file = (name: string, data: Uint8Array | string) => {
      writeFileSync(join(dir, name), data);
      return join(dir, name);
    };
    // A file named without .spv is told apart by its magic number.
    const saxpy = file('saxpy.bin', shaderSpirv('saxpy', glslang)!);
    const c = SHADER_CASES.find((x) => x.name === 'saxpy')!.runs[0];
    const args = c.args(7);
    const ok = run([saxpy, '--args', file('saxpy.json', JSON.stringify(args)), '--groups', '4']);
    assert.equal(ok.code, 0, ok.err);
    const printed = JSON.parse(ok.out) as { device: string; args: Record<string, unknown>; timeMs: number };
    assert.match(printed.device, /^Vulkan \/ /);
    assert.deepEqual(c.check(args, printed.args), []);
    assert.deepEqual(printed.args.X, args.X);

    const spec = file('spec.spv', shaderSpirv('spec-constants', glslang)!);
    const given = run([
      spec,
      '--args',
      file('spec.json', JSON.stringify({ o: { v: { size: 16 } }, SCALE: 2, NEGATE: true })),
      '--global',
      '16',
    ]);
    assert.equal(given.code, 0, given.err);
    const v = (JSON.parse(given.out) as { args: { o: { v: number[] }; SCALE: number } }).args;
    assert.deepEqual(differences('o', v.o, { v: Array.from({ length: 16 }, (_, i) => -(i * 2 + 3) * 2) }), []);
    assert.equal(v.SCALE, 2);

    const wg = file('wg.spv', shaderSpirv('spec-workgroup', glslang)!);
    const data = Array.from({ length: 48 }, (_, i) => i);
    const sized = run([
      wg,
      '--args',
      file('wg.json', JSON.stringify({ inp: { data }, outp: { groupSize: 0, sums: { size: 3 } } })),
      '--global',
      '48',
      '--local',
      '16',
    ]);
    assert.equal(sized.code, 0, sized.err);
    assert.deepEqual((JSON.parse(sized.out) as { args: { outp: unknown } }).args.outp, {
      groupSize: 16,
      sums: [120, 376, 632],
    });

    // Mistakes: placed in the arguments file, or said of the shader; usage errors exit 2.
    const bad = file(
      'bad.json',
      '{\n  "X": {"x": [1, 2]},\n  "ys": {"y": [1, "two"]},\n  "params": {"a": 1, "n": 2}\n}\n',
    );
    const wrong = run([saxpy, '--args', bad, '--global', '64']);
    assert.equal(wrong.code, 1);
    assert.match(
      wrong.err,
      /bad\.json:3:19: error: kernel 'main', argument 'ys\.y\[1\]': expected a number for float, got string two \[KA6011\]/,
    );
    const unknown = run([
      spec,
      '--args',
      file('unknown.json', '{"o": {"v": {"size": 1}}, "SCALEE": 1}'),
      '--global',
      '16',
    ]);
    assert.equal(unknown.code, 1);
    assert.match(
      unknown.err,
      /argument 'SCALEE': 'main' has no argument 'SCALEE' \(it takes o; specialization constants, set when the shader is made: STRIDE, OFFSET, SCALE, NEGATE\)/,
    );
    const specType = run([
      spec,
      '--args',
      file('spec-type.json', '{"o": {"v": {"size": 1}}, "NEGATE": 1}'),
      '--global',
      '16',
    ]);
    assert.match(specType.err, /argument 'NEGATE': expected true or false for a bool specialization constant/);
    const notMultiple = run([saxpy, '--args', join(dir, 'saxpy.json'), '--global', '100']);
    assert.equal(notMultiple.code, 1);
    assert.match(
      notMultiple.err,
      /saxpy\.bin: error: kernel 'main': global size 100 in dimension 0 is not a multiple of the work-group size 64 \(the shader's local_size_x\)/,
    );
    const fixed = run([saxpy, '--args', join(dir, 'saxpy.json'), '--global', '64', '--local', '32']);
    assert.match(fixed.err, /fixed work-group size of 64 in dimension 0 \(local_size_x\); it cannot be 32 \[KA6014\]/);
    const image = run([
      file('image.spv', shaderSpirv('image-store', glslang)!),
      '--args',
      file('image.json', '{}'),
      '--groups',
      '1',
    ]);
    assert.equal(image.code, 1);
    assert.match(
      image.err,
      /image\.spv: error: entry point 'main', resource 'img' \(set 0, binding 0\) is a storage image/,
    );
    const misspelt = run([saxpy, '--args', join(dir, 'saxpy.json'), '--global', '64', '--kernel', 'mian']);
    assert.equal(misspelt.code, 1);
    assert.match(misspelt.err, /no kernel named 'mian' in this file \(it has main\); did you mean 'main'\? \[KA6013\]/);
    assert.equal(run([saxpy, '--args', join(dir, 'saxpy.json'), '--global', '64', '--api', 'opencl']).code, 2);
    assert.equal(run([saxpy, '--args', join(dir, 'saxpy.json')]).code, 2);
    assert.equal(run([saxpy, '--args', join(dir, 'saxpy.json'), '--global', '64', '--groups', '1']).code, 2);
    const truncated = run([
      file('cut.spv', shaderSpirv('saxpy', glslang)!.subarray(0, 30)),
      '--args',
      join(dir, 'saxpy.json'),
      '--global',
      '64',
    ]);
    assert.equal(truncated.code, 1);
    assert.match(
      truncated.err,
      /malformed SPIR-V at byte 28: a SPIR-V module is whole 32-bit words; 30 bytes leave 2 over \[KA7120\]/,
    );
    assert.equal(random(1).int(0, 9), random(1).int(0, 9));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('VulkanShader: a spec constant that is an array length takes only its default (blocks are laid out with it)', (t) => {
  const glslang = requireTool(t, GLSLANG, ['--version']);
  if (!glslang) return;
  const ctx = testVulkan(t);
  if (!ctx) return;
  const dir = mkdtempSync(join(tmpdir(), 'kernarg-spec-array-'));
  try {
    // The reader's shader: `float arr[N]` in a storage block, N = constant_id 7 (default 64).
    writeFileSync(join(dir, 's.comp'), SHADERS['spec-workgroup']);
    execFileSync(glslang, ['-V', join(dir, 's.comp'), '-o', join(dir, 's.spv')], { stdio: ['ignore', 'pipe', 'pipe'] });
    const spirv = new Uint8Array(readFileSync(join(dir, 's.spv')));
    assert.throws(
      () => new VulkanShader(ctx, spirv, { specialization: { N: 8 } }),
      /argument 'N': 'N' is the length of an array type, and kernarg lays out blocks with its default \(64\)/,
    );
    const same = new VulkanShader(ctx, spirv, { specialization: { N: 64, FLAG: true }, local: [4, 2, 1] });
    const arr = Array.from({ length: 64 }, (_, i) => i / 4);
    const r = same.run({ Out: { data: { size: 8 } }, inb: { d: [1.5, 0], arr, tail: 7 } }, { global: [8, 2] });
    // data[gid.x] = d.x + arr[N - 1] + tail, from every invocation of the same x.
    assert.deepEqual(r.args.Out, { data: Array.from({ length: 8 }, () => 1.5 + 63 / 4 + 7) });
    same.dispose();
  } finally {
    rmSync(dir, { recursive: true, force: true });
    ctx.dispose();
  }
});
