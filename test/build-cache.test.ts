import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { kernel } from '../src/runtime/opencl/compile-kernel.js';
import { tinytcKernel } from '../src/runtime/tinytc.js';
import { SourceFile } from '../src/diagnostics/source.js';
import { emitTinytcOpenCLC, emitTinytcOpenCLCMapped } from '../src/codegen/opencl-c/index.js';
import { compileTinytc } from '../src/codegen/compile-tinytc.js';
import { SPIR64 } from '../src/layout/data-layout.js';
import { cacheDir, readEntry } from '../src/runtime/opencl/build-cache.js';
import { BuildError } from '../src/runtime/opencl/program.js';
import { RuntimeInputError } from '../src/pack/errors.js';
import { testDevice } from './support/device.js';
import { lowerForDriver } from '../src/driver-build/lower-build.js';
import { portableBuild, shownOptions } from '../src/build-input/build-input.js';
import { type BoundKernel, type EmbeddedProgram, bindProgram } from '../src/runtime/bindings.js';

const SRC = '#include "scale.h"\nkernel void k(global float *a) { a[get_global_id(0)] *= SCALE; }';

function fresh(): string {
  return mkdtempSync(join(tmpdir(), 'kernarg-cache-'));
}

async function runScaled(ctx: NonNullable<ReturnType<typeof testDevice>>, dir: string, inc: string) {
  const k = await kernel(SRC, 'k', { context: ctx, cache: dir, includeDirs: [inc] });
  const a = ctx.buffer(new Float32Array([1, 2, 3, 4]));
  await k.launch({ args: { a }, global: [4] });
  const out = {
    cache: k.program.cache,
    why: k.program.rebuiltBecause,
    ms: k.program.ms,
    values: [...a.read(new Float32Array(4))],
  };
  k.dispose();
  a.dispose();
  return out;
}

test('cache: the second build is served from the cache; an included header change invalidates it', async (t) => {
  const ctx = testDevice(t);
  if (!ctx) return;
  const dir = fresh();
  const inc = fresh();
  writeFileSync(join(inc, 'scale.h'), '#define SCALE 2.0f\n');
  const first = await runScaled(ctx, dir, inc);
  assert.equal(first.cache, 'miss');
  assert.deepEqual(first.values, [2, 4, 6, 8]);
  const second = await runScaled(ctx, dir, inc);
  assert.equal(second.cache, 'hit');
  assert.deepEqual(second.values, [2, 4, 6, 8]);
  t.diagnostic(
    `build ${first.ms.toFixed(1)} ms, from the cache ${second.ms.toFixed(1)} ms: ${(first.ms - second.ms).toFixed(1)} ms saved`,
  );
  writeFileSync(join(inc, 'scale.h'), '#define SCALE 3.0f\n');
  const changed = await runScaled(ctx, dir, inc);
  assert.equal(changed.cache, 'miss', 'a new header is a new program');
  assert.deepEqual(changed.values, [3, 6, 9, 12]);
  assert.equal((await runScaled(ctx, dir, inc)).cache, 'hit');
  assert.equal(readdirSync(dir).filter((f) => f.endsWith('.bin')).length, 2);
  assert.equal(readdirSync(dir).filter((f) => f.endsWith('.tmp')).length, 0);
  ctx.dispose();
  rmSync(dir, { recursive: true });
  rmSync(inc, { recursive: true });
});

test('cache: corrupted, truncated, foreign and undecodable entries are detected and rebuilt, never used', async (t) => {
  const ctx = testDevice(t);
  if (!ctx) return;
  const dir = fresh();
  const inc = fresh();
  writeFileSync(join(inc, 'scale.h'), '#define SCALE 2.0f\n');
  await runScaled(ctx, dir, inc);
  const [entry] = readdirSync(dir);
  const path = join(dir, entry);
  const good = readFileSync(path);
  const damage: [string, Buffer, RegExp][] = [
    ['one payload byte flipped', Buffer.from(good.map((b, i) => (i === good.length - 7 ? b ^ 0x5a : b))), /checksum/],
    ['truncated', good.subarray(0, good.length - 100), /truncated/],
    ['empty', Buffer.alloc(0), /not a kernarg cache entry/],
    [
      'another program’s entry under this name',
      Buffer.concat([good.subarray(0, 8), Buffer.alloc(32, 7), good.subarray(40)]),
      /another program/,
    ],
  ];
  for (const [what, bytes, why] of damage) {
    writeFileSync(path, bytes);
    const r = await runScaled(ctx, dir, inc);
    assert.equal(r.cache, 'rebuilt', what);
    assert.match(r.why ?? '', why, what);
    assert.deepEqual(r.values, [2, 4, 6, 8], what);
    assert.equal(
      readEntry(dir, Buffer.from(entry.slice(0, 64), 'hex')).kind,
      'hit',
      `${what}: the entry is rewritten whole`,
    );
    assert.equal((await runScaled(ctx, dir, inc)).cache, 'hit', what);
  }
  // A well-formed entry whose binary the driver refuses (valid header and checksum, junk inside).
  const junk = Buffer.from('this is not a program binary');
  const header = Buffer.from(good.subarray(0, 80));
  header.writeBigUInt64LE(BigInt(junk.length), 40);
  (await import('node:crypto')).createHash('sha256').update(junk).digest().copy(header, 48);
  writeFileSync(path, Buffer.concat([header, junk]));
  const refused = await runScaled(ctx, dir, inc);
  assert.equal(refused.cache, 'rebuilt');
  assert.match(refused.why ?? '', /driver/);
  assert.deepEqual(refused.values, [2, 4, 6, 8]);
  ctx.dispose();
  rmSync(dir, { recursive: true });
  rmSync(inc, { recursive: true });
});

test('cache: processes building the same program at once all succeed and leave one valid entry', async (t) => {
  const probe = testDevice(t);
  if (!probe) return;
  probe.dispose();
  const dir = fresh();
  const start = () =>
    new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
      const p = spawn(process.execPath, ['--import', 'tsx', 'test/support/build-once.ts'], {
        env: { ...process.env, KERNARG_CACHE_DIR: dir },
      });
      let out = '';
      let err = '';
      p.stdout.on('data', (d) => (out += d));
      p.stderr.on('data', (d) => (err += d));
      p.on('close', (code) => resolve({ code, out, err }));
    });
  const runs = await Promise.all([start(), start(), start()]);
  const expect = Array.from({ length: 16 }, (_, i) => i * i + 5);
  for (const r of runs) {
    assert.equal(r.code, 0, r.err);
    const got = JSON.parse(r.out) as { cache: string; values: number[] };
    assert.ok(['miss', 'hit'].includes(got.cache), got.cache);
    assert.deepEqual(got.values, expect);
  }
  assert.deepEqual(
    readdirSync(dir).filter((f) => !f.endsWith('.bin')),
    [],
    'no temporary file is left behind',
  );
  assert.equal(readdirSync(dir).length, 1);
  const after = await start();
  assert.equal(JSON.parse(after.out).cache, 'hit', after.err);
  rmSync(dir, { recursive: true });
});

test('cache: the opt-out (option false, KERNARG_CACHE=0) builds from source and writes nothing; KERNARG_CACHE_DIR picks the folder', async (t) => {
  assert.equal(cacheDir(false, {}), null);
  assert.equal(cacheDir(undefined, { KERNARG_CACHE: '0', KERNARG_CACHE_DIR: '/x' }), null);
  assert.equal(cacheDir(undefined, { KERNARG_CACHE_DIR: '/x' }), '/x');
  assert.equal(cacheDir(undefined, { XDG_CACHE_HOME: '/c' }), join('/c', 'kernarg'));
  assert.equal(cacheDir('/y', { KERNARG_CACHE_DIR: '/x' }), '/y');
  const ctx = testDevice(t);
  if (!ctx) return;
  const dir = fresh();
  const saved = process.env.KERNARG_CACHE_DIR;
  process.env.KERNARG_CACHE_DIR = dir;
  try {
    const k = await kernel('kernel void z(global int *a) { a[0] = 1; }', 'z', { context: ctx, cache: false });
    assert.equal(k.program.cache, 'off');
    k.dispose();
    assert.deepEqual(readdirSync(dir), []);
    const k2 = await kernel('kernel void z(global int *a) { a[0] = 1; }', 'z', { context: ctx });
    assert.equal(k2.program.cache, 'miss');
    assert.equal(readdirSync(dir).length, 1);
    k2.dispose();
  } finally {
    if (saved === undefined) delete process.env.KERNARG_CACHE_DIR;
    else process.env.KERNARG_CACHE_DIR = saved;
  }
  ctx.dispose();
  rmSync(dir, { recursive: true });
});

test('build errors: the driver log, the options, the device and where the source came from', async (t) => {
  const ctx = testDevice(t);
  if (!ctx) return;
  const e = await kernel('kernel void k(global int *a) {\n  a[0] = undefined_thing;\n}', 'k', {
    context: ctx,
    origin: 'src/kernels/k.cl',
    buildOptions: '-DFOO=1',
    cache: false,
  }).catch((x) => x);
  assert.ok(e instanceof BuildError, String(e));
  assert.match(e.message, /clBuildProgram failed: CL_BUILD_PROGRAM_FAILURE/);
  assert.match(e.message, /^source: src\/kernels\/k\.cl$/m);
  assert.match(e.message, /^options: -cl-std=CL1\.2 -DFOO=1$/m);
  assert.match(e.message, /^device: /m);
  assert.match(e.message, /build log:\n[\s\S]*undefined_thing/);
  assert.match(e.log, /undefined_thing/);
  ctx.dispose();
});

test('build errors: a driver error in OpenCL C generated from tinytc names the .ir line it came from', async (t) => {
  const ctx = testDevice(t);
  if (!ctx) return;
  const ir =
    '; a comment line\nfunc @k(%a: memref<f32x8>, %n: i32) work_group_size(8, 1) {\n  %x = cast %n : i32 -> f32\n  ' +
    'axpby.n %x, %a, 0.0, %a : f32, memref<f32x8>, f32, memref<f32x8>\n}\n';
  // `-Dx=+` breaks every generated line that uses the value %x: the cast's and the axpby's.
  const e = (() => {
    try {
      tinytcKernel(ctx, ir, 'k', { path: 'kernels/bad.ir', buildOptions: '-Dx=+', cache: false });
    } catch (x) {
      return x;
    }
  })();
  assert.ok(e instanceof BuildError, String(e));
  assert.match(e.message, /^source: kernels\/bad\.ir\.cl \(OpenCL C that kernarg generated from kernels\/bad\.ir\)$/m);
  assert.match(e.message, /^options: -cl-std=CL1\.2 -Dx=\+$/m);
  assert.match(
    e.message,
    /generated line \d+: float x = \(float\)n;\n  comes from kernels\/bad\.ir:3: %x = cast %n : i32 -> f32/,
  );
  assert.match(e.message, /generated line \d+: .*\bx \*.*\n  comes from kernels\/bad\.ir:4: axpby\.n %x/);
  ctx.dispose();
});

test('tinytc OpenCL C: one origin per generated line, each instruction line traced to its IR line', () => {
  for (const c of ['tinytc-kernels']) {
    const path = join(import.meta.dirname, 'fixtures', c, 'input.ir');
    const text = readFileSync(path, 'utf8');
    const file = new SourceFile(path, text);
    const fe = compileTinytc(file, { layout: SPIR64 });
    assert.ok(fe.compiled);
    for (const groupTables of ['pointer', 'ulong'] as const) {
      const m = emitTinytcOpenCLCMapped(fe.compiled, { groupTables });
      assert.equal(m.text, emitTinytcOpenCLC(fe.compiled, { groupTables }));
      const lines = m.text.split('\n').slice(0, -1);
      let traced = 0;
      assert.equal(m.origins.length, lines.length, c);
      // A generated declaration of an IR value `%v = …` comes from the IR line defining %v.
      lines.forEach((l, i) => {
        const decl = /^\s+(?:const )?(?:long|int|float|double|short|char|bool) (\w+) = /.exec(l);
        const o = m.origins[i];
        if (!decl || !o || decl[1].startsWith('kernarg_')) return;
        const irLine = text.split('\n')[file.lineCol(o.start).line - 1];
        const name = decl[1].replace(/_(shape|stride)\d+$/, '').replace(/^x(\d+)$/, '$1');
        assert.match(
          irLine,
          new RegExp(`%${name}\\b`),
          `${c}: generated line ${i + 1} '${l.trim()}' maps to '${irLine.trim()}'`,
        );
        traced++;
      });
      assert.ok(traced >= 10, `${c}: ${traced} declarations traced`);
    }
  }
});

test("cache: a hit never hides a build that fails uncached: every header's bytes key the entry, and the driver's log names the header", async (t) => {
  const ctx = testDevice(t);
  if (!ctx) return;
  const dir = fresh();
  const inc = fresh();
  const trees = fresh();
  const saved = process.env.KERNARG_INCLUDE_TREES;
  process.env.KERNARG_INCLUDE_TREES = trees;
  try {
    writeFileSync(join(inc, 'scale.h'), '#define SCALE 2.0f\n');
    const main = join(inc, 'k.cl');
    const { result, input } = lowerForDriver(
      main,
      SRC,
      { readFile: (p) => (p === join(inc, 'scale.h') ? readFileSync(p, 'utf8') : undefined) },
      [{ kind: 'std', std: 'CL1.2' }],
    );
    assert.ok(result.plan);
    const portable = portableBuild(input, '/').input;
    assert.deepEqual(Object.keys(portable.headers), ['scale.h']);
    const program = (headers: Record<string, string>): EmbeddedProgram => {
      const build = { ...portable, headers };
      return {
        origin: 'k.cl',
        generator: 'test',
        language: 'opencl-c',
        source: SRC,
        options: shownOptions(build),
        build,
        plan: result.plan!,
      };
    };
    const good = program({ 'scale.h': '#define SCALE 2.0f\n' });
    const outcome = () => (bindProgram(ctx, good, { cache: dir }).k as BoundKernel<unknown>).kernel.program.cache;
    assert.deepEqual([outcome(), outcome()], ['miss', 'hit']);
    // The same source and options, one header's bytes changed so the driver refuses them: never the cached binary.
    const broken = program({
      'scale.h': '#define SCALE 2.0f\ninline float twice(float x) { return x * undefined_thing; }\n',
    });
    for (const cache of [dir, false] as const) {
      const e = (() => {
        try {
          bindProgram(ctx, broken, { cache });
        } catch (x) {
          return x;
        }
      })();
      assert.ok(e instanceof BuildError, `cache ${cache}: ${String(e)}`);
      assert.match(
        e.log,
        /(^|\s)scale\.h:2:\d+:.*undefined_thing/m,
        'the log names the header by its path in the build input',
      );
      assert.ok(!e.message.includes(trees), 'not by its place in the include tree');
    }
    assert.equal(readdirSync(dir).filter((f) => f.endsWith('.bin')).length, 1, 'a failed build stores nothing');
    // kernel() (and run) name the real file.
    writeFileSync(
      join(inc, 'scale.h'),
      '#define SCALE 2.0f\ninline float twice(float x) { return x * undefined_thing; }\n',
    );
    const e = await kernel(SRC, 'k', { context: ctx, cache: dir, includeDirs: [inc] }).catch((x) => x);
    assert.ok(e instanceof BuildError, String(e));
    assert.ok(e.log.includes(`${join(inc, 'scale.h')}:2:`), e.log);
    // A tree folder that cannot be made is said in one line, not a stack trace.
    process.env.KERNARG_INCLUDE_TREES = join(inc, 'scale.h', 'under-a-file');
    const unwritable = await kernel(SRC, 'k', { context: ctx, cache: false, includeDirs: [inc] }).catch((x) => x);
    assert.ok(unwritable instanceof RuntimeInputError, String(unwritable));
    assert.match(unwritable.message, /^cannot write the include tree for .*k\.cl: ENOTDIR.*KERNARG_INCLUDE_TREES/);
  } finally {
    if (saved === undefined) delete process.env.KERNARG_INCLUDE_TREES;
    else process.env.KERNARG_INCLUDE_TREES = saved;
    ctx.dispose();
    for (const d of [dir, inc, trees]) rmSync(d, { recursive: true, force: true });
  }
});
