import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCliWith, nodeIO } from '../src/cli/main.js';
import { compileClToPtx, findNvptxClang, undefinedFunctions } from '../src/cli/cuda-ptx-compile.js';
import { openCuda } from '../src/runtime/cuda/driver.js';
import { RuntimeInputError } from '../src/pack/errors.js';
import { SAMPLE_KERNELS, buildCubin } from './support/cubin-image.js';

const GPU = join(import.meta.dirname, '..', 'scripts', 'gpu-cuda');

/**
 * The CLI on the real file system with a CUDA library that is not there: what a machine without NVIDIA's driver sees.
 */
function cli(argv: string[]): { code: number; out: string; err: string } {
  let out = '';
  let err = '';
  const saved = process.env.KERNARG_LIBCUDA;
  process.env.KERNARG_LIBCUDA = '/nonexistent/libcuda.so.1';
  try {
    const code = runCliWith(argv, {
      ...nodeIO(),
      stdout: (s: string) => (out += s),
      stderr: (s: string) => (err += s),
      color: false,
    });
    return { code, out, err };
  } finally {
    if (saved === undefined) delete process.env.KERNARG_LIBCUDA;
    else process.env.KERNARG_LIBCUDA = saved;
  }
}

function files(entries: Record<string, string | Uint8Array>): { dir: string; path: (n: string) => string } {
  const dir = mkdtempSync(join(tmpdir(), 'kernarg-cuda-cli-'));
  for (const [n, v] of Object.entries(entries)) writeFileSync(join(dir, n), v);
  return { dir, path: (n) => join(dir, n) };
}

test('without a CUDA driver: the library is named, as a diagnostic, exit 1 (PTX and cubin input alike)', () => {
  assert.throws(
    () => openCuda('/nonexistent/libcuda.so.1'),
    (e) =>
      e instanceof RuntimeInputError &&
      /cannot load the CUDA driver library \(\/nonexistent\/libcuda\.so\.1\): --api cuda needs NVIDIA's driver/.test(
        e.message,
      ),
  );
  const f = files({
    'a.json': JSON.stringify({
      bank_param_0: new Array(13).fill(1),
      bank_param_1: new Array(32).fill(0),
      bank_param_2: { buffer: 'int', size: 32 },
    }),
    'k.cubin': buildCubin(SAMPLE_KERNELS),
  });
  try {
    const ptx = join(GPU, 'launch-kernels.ptx');
    const r = cli(['run', ptx, '--api', 'cuda', '--kernel', 'bank', '--args', f.path('a.json'), '--global', '32']);
    assert.equal(r.code, 1);
    assert.equal(r.out, '');
    assert.match(
      r.err,
      /^\S+launch-kernels\.ptx: error: cannot load the CUDA driver library \(\/nonexistent\/libcuda\.so\.1\): .* \[KA6014\]\n$/,
    );
    const c = cli([
      'run',
      f.path('k.cubin'),
      '--api=cuda',
      '--kernel',
      'bank',
      '--args',
      f.path('a.json'),
      '--global',
      '32',
    ]);
    assert.equal(c.code, 1);
    assert.match(c.err, /k\.cubin: error: cannot load the CUDA driver library .*\[KA6014\]/);
    assert.doesNotMatch(r.err + c.err, /\n\s+at /, 'no stack trace');
  } finally {
    rmSync(f.dir, { recursive: true, force: true });
  }
});

test('run --api cuda: usage errors (exit 2) and a kernel the input lacks (exit 1), before any driver is needed', () => {
  const f = files({
    'a.json': '{}',
    'k.ir': 'func @k() {}',
    'x.bin': 'not a kernel',
    'k.cubin': buildCubin(SAMPLE_KERNELS),
  });
  try {
    const ptx = join(GPU, 'launch-kernels.ptx');
    const usage = (argv: string[], message: RegExp) => {
      const r = cli(argv);
      assert.equal(r.code, 2, r.err);
      assert.match(r.err, message);
    };
    usage(
      ['run', f.path('k.ir'), '--api', 'cuda', '--kernel', 'k', '--args', f.path('a.json')],
      /tinytc IR runs through --api opencl or --api vulkan/,
    );
    usage(['run', ptx, '--api', 'cuda', '--kernel', 'bank', '--args', f.path('a.json')], /run needs --global/);
    usage(
      ['run', ptx, '--api', 'cuda', '--kernel', 'bank', '--args', f.path('a.json'), '--global', '32', '--howmany', '2'],
      /--howmany does not apply to --api cuda/,
    );
    usage(
      [
        'run',
        ptx,
        '--api',
        'cuda',
        '--kernel',
        'bank',
        '--args',
        f.path('a.json'),
        '--global',
        '32,2',
        '--local',
        '32',
      ],
      /--local has 1 dimension and --global 2/,
    );
    usage(
      ['run', f.path('x.bin'), '--api', 'cuda', '--kernel', 'k', '--args', f.path('a.json'), '--global', '1'],
      /cannot tell what .*x\.bin' is: --api cuda runs PTX/,
    );
    usage(
      ['run', ptx, '--api', 'cudaa', '--kernel', 'k', '--args', f.path('a.json'), '--global', '1'],
      /--api takes opencl, vulkan, cuda, not 'cudaa'; did you mean 'cuda'\?/,
    );
    const missing = cli([
      'run',
      f.path('k.cubin'),
      '--api',
      'cuda',
      '--kernel',
      'bnak',
      '--args',
      f.path('a.json'),
      '--global',
      '1',
    ]);
    assert.equal(missing.code, 1);
    assert.match(
      missing.err,
      /no kernel named 'bnak' in this file \(it has mixed, bank, none\); did you mean 'bank'\? \[KA6013\]/,
    );
  } finally {
    rmSync(f.dir, { recursive: true, force: true });
  }
});

test('a .ptx input that is not PTX, and a cubin whose records are broken, are diagnosed as lower diagnoses them', () => {
  const broken = buildCubin(SAMPLE_KERNELS);
  // The first .nv.info.<kernel> record's format byte, found by its bytes (CBANK_PARAM_SIZE, HVAL).
  const at = broken.findIndex((b, i) => b === 3 && broken[i + 1] === 0x19);
  broken[at] = 9;
  const f = files({ 'a.json': '{}', 'k.cubin': broken });
  try {
    const r = cli([
      'run',
      f.path('k.cubin'),
      '--api',
      'cuda',
      '--kernel',
      'mixed',
      '--args',
      f.path('a.json'),
      '--global',
      '1',
    ]);
    assert.equal(r.code, 1);
    assert.match(r.err, /error: at byte \d+: section '\.nv\.info\.mixed': record format 9 is none of .*\[KA7401\]/);
  } finally {
    rmSync(f.dir, { recursive: true, force: true });
  }
});

test("the functions a PTX module declares and never defines (what the driver's linker would refuse)", () => {
  const ptx =
    '.func  (.param .b64 func_retval0) _Z13get_global_idj\n(\n\t.param .b32 p\n)\n;\n.func _Z7barrierj(.param .b32 ' +
    'a)\n;\n.func helper(\n)\n{\nret;\n}\n.func helper\n(\n)\n;\n.entry k()\n{\nret;\n}\n';
  assert.deepEqual(undefinedFunctions(ptx), ['_Z13get_global_idj', '_Z7barrierj']);
  assert.deepEqual(undefinedFunctions(readFileSync(join(GPU, 'launch-kernels.ptx'), 'utf8')), []);
});

test("the GPU script's PTX is what clang's NVPTX backend makes of its source today (regenerate: --make-ptx)", (t) => {
  const clang = findNvptxClang();
  if (!clang) {
    if (process.env.CI === 'true')
      throw new Error('no clang with the NVPTX backend (CI=true: .ci/run installs clang-16)');
    t.skip('no clang with the NVPTX backend');
    return;
  }
  const made = compileClToPtx(join(GPU, 'launch-kernels.cl'), [{ kind: 'std', std: 'CL1.2' }]);
  assert.ok('ptx' in made, JSON.stringify(made));
  assert.equal(
    made.clang,
    'clang-16',
    "the committed PTX is clang-16's (the oldest PTX ISA version, which loads on the most drivers)",
  );
  assert.equal(made.ptx, readFileSync(join(GPU, 'launch-kernels.ptx'), 'utf8'));
});
