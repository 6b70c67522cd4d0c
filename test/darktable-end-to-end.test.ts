// Real kernels with headers, end to end on the OpenCL device: `kernarg run`, `kernarg replay` and
// gen-ts bindings on darktable's files (test/real/darktable, GPL-3.0-or-later: see its README),
// run from `/`, with the build cache off and the sources deleted after the capture and the module
// were made. They use the built CLI and package (dist/), as a user's shell and a user's module do.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { testDevice } from './support/device.js';

const ROOT = join(import.meta.dirname, '..');
const BIN = join(ROOT, 'bin', 'kernarg.js');
const DARKTABLE = join(import.meta.dirname, 'real', 'darktable');
// Inside the package, so that a generated module's `kernarg/runtime` resolves as a user's does (test/.tmp is ignored by
// git).
const OUT = join(ROOT, 'test', '.tmp', 'darktable-end-to-end');
const TSX = import.meta.resolve('tsx');

function built(): void {
  assert.ok(
    existsSync(join(ROOT, 'dist', 'cli.mjs')) && existsSync(join(ROOT, 'dist', 'runtime', 'index.js')),
    'dist/ is missing: npm test builds it (npm run build)',
  );
}

/** Runs the CLI as a user would, from `cwd`, with the build cache off unless `env` says otherwise. */
function kernarg(
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
): { code: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, KERNARG_CACHE: '0', ...env },
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const device = () => ['--device', process.env.KERNARG_DEVICE ?? ''];

/** darktable's blur_line (bilateral.cl) on one line of `n` floats, in float32 as the kernel computes it. */
function blurLine(x: readonly number[]): number[] {
  const f = Math.fround;
  const [w0, w1, w2] = [f(6 / 16), f(4 / 16), f(1 / 16)];
  const at = (i: number) => x[i] ?? 0;
  return x.map((v, i) => f(f(f(v * w0) + f(w1 * f(at(i + 1) + at(i - 1)))) + f(w2 * f(at(i + 2) + at(i - 2)))));
}

const LINE = [1, 2, 4, 8, 16, 32, 64, 128];
const BLUR_ARGS = {
  ibuf: { buffer: 'float', data: LINE },
  obuf: { buffer: 'float', size: 8 },
  offset1: 0,
  offset2: 0,
  offset3: 1,
  size1: 1,
  size2: 1,
  size3: 8,
};

function closeTo(got: readonly number[], want: readonly number[], what: string): void {
  assert.equal(got.length, want.length, what);
  got.forEach((g, i) =>
    assert.ok(Math.abs(g - want[i]) <= 1e-5 * Math.max(1, Math.abs(want[i])), `${what}[${i}]: ${g} vs ${want[i]}`),
  );
}

test('darktable: run, replay and gen-ts bindings work from /, with the sources deleted and the build cache off', async (t) => {
  const probe = testDevice(t);
  if (!probe) return;
  probe.dispose();
  built();
  const src = mkdtempSync(join(tmpdir(), 'kernarg-darktable-src-'));
  const work = mkdtempSync(join(tmpdir(), 'kernarg-darktable-work-'));
  const trees = join(work, 'trees');
  const env = { KERNARG_INCLUDE_TREES: trees };
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  try {
    cpSync(DARKTABLE, src, { recursive: true });
    // run: basic.cl includes colorspace.h, color_conversion.h, common.h, rgb_norms.h and diffuse.cl from its own
    // folder.
    const pixels = Array.from({ length: 4 * 3 * 4 }, (_, i) => i + 1);
    writeFileSync(
      join(work, 'exposure.json'),
      JSON.stringify({
        in: { image: { width: 4, height: 3, channelOrder: 'RGBA', channelType: 'FLOAT', data: pixels } },
        out: { image: { width: 4, height: 3, channelOrder: 'RGBA', channelType: 'FLOAT' } },
        width: 4,
        height: 3,
        black: 1,
        scale: 2,
      }),
    );
    const exposure = kernarg(
      [
        'run',
        join(src, 'basic.cl'),
        '--kernel',
        'exposure',
        '--args',
        join(work, 'exposure.json'),
        '--global',
        '4,3',
        ...device(),
      ],
      '/',
      env,
    );
    assert.equal(exposure.code, 0, exposure.err);
    assert.deepEqual(
      JSON.parse(exposure.out).args.out,
      pixels.map((v, i) => (i % 4 === 3 ? v : (v - 1) * 2)),
    );

    // run with a capture: bilateral.cl includes common.h.
    writeFileSync(join(work, 'blur.json'), JSON.stringify(BLUR_ARGS));
    const captures = join(work, 'captures');
    const blur = kernarg(
      [
        'run',
        join(src, 'bilateral.cl'),
        '--kernel',
        'blur_line',
        '--args',
        join(work, 'blur.json'),
        '--global',
        '1,1',
        '--capture',
        captures,
        ...device(),
      ],
      '/',
      env,
    );
    assert.equal(blur.code, 0, blur.err);
    const ran = JSON.parse(blur.out).args.obuf as number[];
    closeTo(ran, blurLine(LINE), 'run');
    const [captureName] = readdirSync(captures);
    const captureText = readFileSync(join(captures, captureName), 'utf8');
    const capture = JSON.parse(captureText);
    assert.equal(capture.version, 2);
    assert.equal(capture.build.path, 'bilateral.cl');
    assert.deepEqual(Object.keys(capture.build.headers), ['common.h']);
    assert.equal(capture.build.headers['common.h'], readFileSync(join(DARKTABLE, 'common.h'), 'utf8'));
    assert.equal(capture.options, '-cl-std=CL1.2');

    // gen-ts from /, the module written inside the package.
    const modulePath = join(OUT, 'bilateral.ts');
    const gen = kernarg(['gen-ts', join(src, 'bilateral.cl'), '-o', modulePath], '/', env);
    assert.equal(gen.code, 0, gen.err);
    const moduleText = readFileSync(modulePath, 'utf8');
    for (const [what, text] of [
      ['capture', captureText],
      ['module', moduleText],
    ]) {
      assert.ok(
        !text.includes(src) && !text.includes(tmpdir()),
        `the ${what} holds no absolute path of the machine that made it`,
      );
    }

    // The originals go: what follows reads only the capture and the module.
    rmSync(src, { recursive: true });
    rmSync(trees, { recursive: true, force: true });
    const replayed = kernarg(['replay', join(captures, captureName), ...device()], '/', env);
    assert.equal(replayed.code, 0, replayed.err);
    assert.deepEqual(JSON.parse(replayed.out).buffers.obuf.values, ran, "replay gives the run's bytes");

    writeFileSync(
      join(OUT, 'use.ts'),
      [
        "import { Context } from 'kernarg/runtime';",
        "import { load } from './bilateral.ts';",
        'const ctx = Context.open(process.env.KERNARG_DEVICE);',
        'const k = load(ctx);',
        `const ibuf = ctx.buffer(new Float32Array(${JSON.stringify(LINE)}));`,
        'const obuf = ctx.buffer(new Float32Array(8));',
        'await k.blur_line.run({ args: { ibuf, obuf, offset1: 0, offset2: 0, offset3: 1, size1: 1, size2: 1, size3: ' +
          '8 }, global: [1, 1] });',
        'console.log(JSON.stringify({ cache: k.blur_line.kernel.program.cache, values: [...obuf.read(new ' +
          'Float32Array(8))] }));',
        'ctx.dispose();',
        '',
      ].join('\n'),
    );
    const bindings = (extra: Record<string, string>) => {
      const r = spawnSync(process.execPath, ['--import', TSX, join(OUT, 'use.ts')], {
        cwd: '/',
        encoding: 'utf8',
        env: { ...process.env, ...env, ...extra },
      });
      assert.equal(r.status, 0, r.stderr);
      return JSON.parse(r.stdout) as { cache: string; values: number[] };
    };
    const off = bindings({ KERNARG_CACHE: '0' });
    assert.equal(off.cache, 'off');
    assert.deepEqual(off.values, ran, 'bindings with the cache off');
    const cacheDir = join(work, 'cache');
    const miss = bindings({ KERNARG_CACHE: '1', KERNARG_CACHE_DIR: cacheDir });
    const hit = bindings({ KERNARG_CACHE: '1', KERNARG_CACHE_DIR: cacheDir });
    assert.deepEqual([miss.cache, hit.cache], ['miss', 'hit']);
    assert.deepEqual(miss.values, ran, 'bindings with the cache on, built');
    assert.deepEqual(hit.values, ran, 'bindings with the cache on, from the cache');
  } finally {
    rmSync(src, { recursive: true, force: true });
    rmSync(work, { recursive: true, force: true });
  }
});

test("run -I dir -D X=1: the including file's folder first, then -I in order; -D and -U in order; kernarg and the driver agree", async (t) => {
  const probe = testDevice(t);
  if (!probe) return;
  probe.dispose();
  built();
  const dir = mkdtempSync(join(tmpdir(), 'kernarg-run-flags-'));
  try {
    const files: Record<string, string> = {
      // With X == 1 the kernel has one parameter, else two: kernarg's plan follows the macros as the driver's build
      // does.
      'k/main.cl':
        '#include "scale.h"\n#if X == 1\nkernel void k(global int *a) { a[get_global_id(0)] = SCALE + OFFSET; ' +
        '}\n#else\nkernel void k(global int *a, int b) { a[get_global_id(0)] = SCALE + OFFSET + b; }\n#endif\n',
      // Found beside main.cl before inc/scale.h; it finds offset.h in inc before inc2.
      'k/scale.h': '#include "offset.h"\n#define SCALE (X * 10)\n',
      'inc/scale.h': '#define SCALE 999\n',
      'inc/offset.h': '#define OFFSET 7\n',
      'inc2/offset.h': '#define OFFSET 1000\n',
      'one.json': JSON.stringify({ a: { buffer: 'int', size: 2 } }),
      'two.json': JSON.stringify({ a: { buffer: 'int', size: 2 }, b: 100 }),
    };
    for (const [p, text] of Object.entries(files)) {
      mkdirSync(join(dir, p, '..'), { recursive: true });
      writeFileSync(join(dir, p), text);
    }
    const run = (cwd: string, at: (p: string) => string, flags: string[], args: string) => {
      const r = kernarg(
        ['run', at('k/main.cl'), '--kernel', 'k', '--args', at(args), '--global', '2', ...flags, ...device()],
        cwd,
      );
      assert.equal(r.code, 0, r.err);
      return JSON.parse(r.out).args.a as number[];
    };
    const abs = (p: string) => join(dir, p);
    const rel = (p: string) => p;
    assert.deepEqual(run('/', abs, ['-I', abs('inc'), '-I', abs('inc2'), '-D', 'X=1'], 'one.json'), [17, 17]);
    // A value with spaces reaches the driver quoted, as one -D.
    assert.deepEqual(run(dir, rel, ['-Iinc', '--include', 'inc2', '--define', 'X=(0 + 1)'], 'one.json'), [17, 17]);
    assert.deepEqual(
      run(dir, rel, ['-I', 'inc2', '-I', 'inc', '-D', 'X=5', '-U', 'X', '-D', 'X=2', '-cl-std=CL2.0'], 'two.json'),
      [1120, 1120],
      '-I order: inc2 first; the last -D X wins',
    );
    const missing = kernarg(
      ['run', abs('k/main.cl'), '--kernel', 'k', '--args', abs('one.json'), '--global', '2', '-D', 'X=1', ...device()],
      '/',
    );
    assert.equal(missing.code, 1, 'without -I inc, offset.h is not found');
    assert.match(missing.err, /'offset\.h' file not found \[KA1041\]/);
    const usage = kernarg(
      ['run', abs('k/main.cl'), '--kernel', 'k', '--args', abs('one.json'), '--global', '2', '-D', '1X'],
      '/',
    );
    assert.equal(usage.code, 2);
    assert.match(usage.err, /macro name must be an identifier/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
