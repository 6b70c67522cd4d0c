import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCliWith } from '../src/cli/main.js';
import { testDevice } from './support/device.js';
import { testVulkan } from './support/vulkan-device.js';

// Issue 17, runtime half: every mistaken or hostile `kernarg run` input is a refusal naming the
// kernel and the argument (exit 1) or a usage error (exit 2); none crashes, none is silently wrong.

function runner(files: Record<string, string>) {
  return (argv: string[]) => {
    let stdout = '';
    let stderr = '';
    const dev = process.env.KERNARG_DEVICE ? ['--device', process.env.KERNARG_DEVICE] : [];
    const code = runCliWith(['run', ...argv, ...dev], {
      stdout: (t) => (stdout += t),
      stderr: (t) => (stderr += t),
      readFile: (p) => files[p],
      color: false,
    });
    return { code, stdout, stderr };
  };
}

/** Whether an OpenCL device is there (under CI=true a missing one fails the test). */
function hasDevice(t: { skip: (m: string) => void }): boolean {
  const ctx = testDevice(t);
  ctx?.dispose();
  return ctx !== undefined;
}

const refused = (r: { code: number; stdout: string; stderr: string }, pattern: RegExp) => {
  assert.equal(r.code, 1, `exit code (stderr: ${r.stderr})`);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, pattern);
  assert.doesNotMatch(r.stderr, /'\((args|kernel)\)'|internal error|\n\s+at /);
};

const CL = `typedef struct { int toString; int b; } T;
typedef struct { float x[2048]; } Huge;
kernel void k(global float *a, global long *w, int n, local float *tmp) {
  size_t i = get_global_id(0);
  tmp[get_local_id(0)] = a[i];
  a[i] = tmp[get_local_id(0)] * 2 + n;
  w[i] = w[i] + 1;
}
kernel __attribute__((reqd_work_group_size(4, 1, 1))) void r(global int *o) { o[get_global_id(0)] = get_local_size(0); }
kernel void s(global int *o, T t) { o[0] = t.toString + t.b; }
kernel void big(global int *o, Huge h) { o[0] = h.x[0]; }
`;

const ok = {
  a: { buffer: 'float', data: [1, 2, 3, 4] },
  w: { buffer: 'long', data: [1, '9007199254740993', -3, 4] },
  n: 1,
  tmp: { local: 64 },
};
const files: Record<string, string> = { 'k.cl': CL };
const json = (name: string, v: unknown) => ((files[name] = JSON.stringify(v)), name);
const run = runner(files);
const K = (args: string, ...rest: string[]) => run(['k.cl', '--kernel', 'k', '--args', args, '--global', '4', ...rest]);

test('kernarg run (OpenCL C): the good case works and prints 64-bit integers past 2^53 as digit strings', (t) => {
  if (!hasDevice(t)) return;
  const r = K(json('ok.json', ok));
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.deepEqual(out.args.a, [3, 5, 7, 9]);
  assert.deepEqual(out.args.w, [2, '9007199254740994', -2, 5]);
});

test('kernarg run (OpenCL C): buffers given as arrays, objects, empty data, bad entries or prototype names are refused', (t) => {
  if (!hasDevice(t)) return;
  refused(
    K(json('arr.json', { ...ok, a: [1, 2, 3, 4] })),
    /kernel 'k', argument 'a': a global pointer takes \{"buffer"/,
  );
  refused(K(json('obj.json', { ...ok, a: {} })), /kernel 'k', argument 'a': a global pointer takes/);
  refused(
    K(json('empty.json', { ...ok, a: { buffer: 'float', data: [] } })),
    /argument 'a\.data': "data" must hold at least one element/,
  );
  refused(
    K(json('frac.json', { ...ok, w: { buffer: 'long', data: [1, 1.5, 2, 3] } })),
    /argument 'w\.data\[1\]': expected an integer \(or a digit string\) for long, got number 1\.5/,
  );
  refused(
    K(json('nan.json', { ...ok, w: { buffer: 'long', data: [1, 'abc', 2, 3] } })),
    /argument 'w\.data\[1\]': expected an integer .* the string "abc"/,
  );
  refused(
    K(json('unsafe.json', { ...ok, w: { buffer: 'long', data: [2 ** 60, 1, 2, 3] } })),
    /argument 'w\.data\[0\]': .* beyond 2\^53 .* digit strings/,
  );
  for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
    refused(
      K(json(`proto-${name}.json`, { ...ok, a: { buffer: name, data: [1] } })),
      /argument 'a\.buffer': unknown element type/,
    );
  }
  refused(
    K(json('char.json', { ...ok, a: { buffer: 'char', data: [1, 2, 3, 4] } })),
    /argument 'a\.buffer': a char buffer for float\*: the kernel reads float/,
  );
  refused(
    K(json('both.json', { ...ok, a: { buffer: 'float', data: [1], size: 4 } })),
    /argument 'a': give either "data"/,
  );
  refused(K(json('typo.json', { ...ok, a: { buffer: 'float', sizee: 4 } })), /argument 'a\.sizee': unexpected key/);
});

test('kernarg run (OpenCL C): buffer sizes of 2^28 and 2^40 elements are refused, naming the limit', (t) => {
  if (!hasDevice(t)) return;
  refused(
    K(json('s28.json', { ...ok, a: { buffer: 'float', size: 2 ** 28 } })),
    /argument 'a': 268435456 elements is more than 16777216/,
  );
  refused(
    K(json('s40.json', { ...ok, a: { buffer: 'float', size: 2 ** 40 } })),
    /argument 'a': 1099511627776 elements is more than/,
  );
});

test('kernarg run (OpenCL C): __proto__ never supplies an argument, and a missing field named toString is missing', (t) => {
  if (!hasDevice(t)) return;
  files['proto.json'] =
    `{"a": {"buffer": "float", "data": [1, 2, 3, 4]}, "w": {"buffer": "long", "size": 4}, "tmp": {"local": 64}, ` +
    `"__proto__": {"n": 1}}`;
  refused(K('proto.json'), /kernel 'k', argument '__proto__': 'k' has no argument '__proto__'/);
  refused(
    run([
      'k.cl',
      '--kernel',
      's',
      '--args',
      json('ts.json', { o: { buffer: 'int', size: 1 }, t: { b: 1 } }),
      '--global',
      '1',
    ]),
    /kernel 's', argument 't\.toString': missing field 'toString'/,
  );
  const good = run([
    'k.cl',
    '--kernel',
    's',
    '--args',
    json('ts-ok.json', { o: { buffer: 'int', size: 1 }, t: { toString: 2, b: 1 } }),
    '--global',
    '1',
  ]);
  assert.equal(good.code, 0, good.stderr);
  assert.deepEqual(JSON.parse(good.stdout).args.o, [3]);
});

test('kernarg run (OpenCL C): local memory above the device, {local: 0}, and too many argument bytes are refused', (t) => {
  if (!hasDevice(t)) return;
  refused(
    K(json('local-big.json', { ...ok, tmp: { local: 2 ** 40 } })),
    /kernel 'k', argument 'tmp': \{local: 1099511627776\} .*CL_DEVICE_LOCAL_MEM_SIZE/,
  );
  refused(
    K(json('local-0.json', { ...ok, tmp: { local: 0 } })),
    /kernel 'k', argument 'tmp': \{"local": N\} takes a positive whole number/,
  );
  const huge = { o: { buffer: 'int', size: 1 }, h: { x: new Array(2048).fill(0) } };
  refused(
    run(['k.cl', '--kernel', 'big', '--args', json('huge.json', huge), '--global', '1']),
    /kernel 'big', argument 'h': the arguments take \d+ bytes, more than .*CL_DEVICE_MAX_PARAMETER_SIZE/,
  );
});

test('kernarg run (OpenCL C): launch geometry — reqd_work_group_size used without --local, divisibility, device maxima, usage conflicts', (t) => {
  if (!hasDevice(t)) return;
  const o = json('o.json', { o: { buffer: 'int', size: 8 } });
  const r = run(['k.cl', '--kernel', 'r', '--args', o, '--global', '8']);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout).args.o, [4, 4, 4, 4, 4, 4, 4, 4]);
  refused(
    run(['k.cl', '--kernel', 'r', '--args', o, '--global', '8', '--local', '2']),
    /kernel 'r': the local size 2 differs from its reqd_work_group_size\(4, 1, 1\)/,
  );
  refused(
    run(['k.cl', '--kernel', 'r', '--args', o, '--global', '6']),
    /kernel 'r': the global size 6 along x is not a multiple of the local size 4/,
  );
  refused(
    K(json('ok2.json', ok), '--local', '3'),
    /kernel 'k': the global size 4 along x is not a multiple of the local size 3/,
  );
  refused(
    run(['k.cl', '--kernel', 'k', '--args', 'ok2.json', '--global', '65536', '--local', '65536']),
    /kernel 'k': the local size 65536 along x is more than the device allows/,
  );
  for (const argv of [
    ['k.cl', '--kernel', 'k', '--args', 'ok2.json', '--global', '4', '--local', '2,2'],
    ['k.cl', '--kernel', 'k', '--args', 'ok2.json', '--global', '4', '--howmany', '2'],
    ['k.cl', '--kernel', 'k', '--args', 'ok2.json', '--global', '4', '--cl-std', 'CL9.9'],
    ['k.cl', '--kernel', 'k', '--args', 'ok2.json', '--global', '4x'],
  ]) {
    const u = run(argv);
    assert.equal(u.code, 2, `${argv.join(' ')}: ${u.stderr}`);
  }
  refused(
    run(['k.cl', '--kernel', 'nope', '--args', 'ok2.json', '--global', '4']),
    /^k\.cl: error: no kernel named 'nope' in this file \(it has k, r, s, big\) \[KA6013\]/,
  );
});

const IR = `func @axpy(%a: memref<f32x?>, %b: memref<f32x?>) {
  axpby.n 1.0, %a, 1.0, %b : f32, memref<f32x?>, f32, memref<f32x?>
}
func @iadd(%a: memref<i32x?>, %b: memref<i32x?>) {
  axpby.n 1, %a, 1, %b : i32, memref<i32x?>, i32, memref<i32x?>
}
func @dadd(%a: memref<f64x?>, %b: memref<f64x?>) {
  axpby.n 1.0, %a, 1.0, %b : f64, memref<f64x?>, f64, memref<f64x?>
}
func @gsum(%g: group<memref<f32x?>, offset: ?>, %y: memref<f32x?>) {
  %id = group_id
  %a = load %g[%id] : group<memref<f32x?>, offset: ?>
  axpby.n 1.0, %a, 1.0, %y : f32, memref<f32x?>, f32, memref<f32x?>
}
func @scale(%a: memref<f32x?>, %n: i64) {}
`;

test('kernarg run (tinytc): memrefs without "type" take the signature\'s element type; a disagreeing type is refused', (t) => {
  if (!hasDevice(t)) return;
  files['f.ir'] = IR;
  const i32 = run([
    'f.ir',
    '--kernel',
    'iadd',
    '--args',
    json('i32.json', {
      a: { memref: { data: [1, 2, 3], shape: [3] } },
      b: { memref: { data: [10, 20, 30], shape: [3] } },
    }),
  ]);
  assert.equal(i32.code, 0, i32.stderr);
  assert.deepEqual(JSON.parse(i32.stdout).args.b, [11, 22, 33]);
  const f64 = run([
    'f.ir',
    '--kernel',
    'dadd',
    '--args',
    json('f64.json', {
      a: { memref: { data: [0.1, 0.2], shape: [2] } },
      b: { memref: { data: [1e-300, 1], shape: [2] } },
    }),
  ]);
  assert.equal(f64.code, 0, f64.stderr);
  assert.deepEqual(JSON.parse(f64.stdout).args.b, [0.1 + 1e-300, 1.2]);
  refused(
    run([
      'f.ir',
      '--kernel',
      'axpy',
      '--args',
      json('f64for32.json', {
        a: { memref: { type: 'f64', data: [1], shape: [1] } },
        b: { memref: { data: [1], shape: [1] } },
      }),
    ]),
    /kernel 'axpy', argument 'a\.type': f64 data for a memref of f32/,
  );
  refused(
    run([
      'f.ir',
      '--kernel',
      'axpy',
      '--args',
      json('badtype.json', {
        a: { memref: { type: 'constructor', data: [1], shape: [1] } },
        b: { memref: { data: [1], shape: [1] } },
      }),
    ]),
    /argument 'a\.type': unknown element type/,
  );
});

test('kernarg run (tinytc): dynamic extents that disagree with each other or with the data are refused', (t) => {
  if (!hasDevice(t)) return;
  files['f.ir'] = IR;
  refused(
    run([
      'f.ir',
      '--kernel',
      'axpy',
      '--args',
      json('tie.json', {
        a: { memref: { data: [1, 2, 3, 4], shape: [4] } },
        b: { memref: { data: [1, 2, 3], shape: [3] } },
      }),
    ]),
    /kernel 'axpy', argument 'b': axpby needs mode 0 of op\(A\) and B to agree: a\.shape\[0\] is 4, b\.shape\[0\] is 3/,
  );
  refused(
    run([
      'f.ir',
      '--kernel',
      'axpy',
      '--args',
      json('short.json', {
        a: { memref: { data: [1, 2, 3, 4], shape: [8] } },
        b: { memref: { data: [1, 2, 3, 4, 5, 6, 7, 8], shape: [8] } },
      }),
    ]),
    /kernel 'axpy', argument 'a': data holds 16 bytes, the shape and stride need 32/,
  );
  refused(
    run([
      'f.ir',
      '--kernel',
      'axpy',
      '--args',
      json('stride.json', {
        a: { memref: { data: [1, 2], shape: [2], stride: ['1'] } },
        b: { memref: { data: [1, 2], shape: [2] } },
      }),
    ]),
    /argument 'a\.stride\[0\]': 1 is not a valid stride/,
  );
  const gtie = {
    g: {
      group: [
        { data: [1, 2, 3], shape: [3] },
        { data: [1, 2], shape: [2] },
      ],
      offset: 0,
    },
    y: { memref: { data: [0, 0, 0], shape: [3] } },
  };
  refused(
    run(['f.ir', '--kernel', 'gsum', '--args', json('gtie.json', gtie), '--howmany', '2']),
    /kernel 'gsum', argument 'y': axpby needs mode 0 of op\(A\) and B to agree: g\[1\]\.shape\[0\] is 2, y\.shape\[0\] is 3/,
  );
});

test('kernarg run (tinytc): group offsets past the end, 2^40, --howmany above the members or 2^40, --global for .ir', (t) => {
  if (!hasDevice(t)) return;
  files['f.ir'] = IR;
  const g = (offset: number) => ({
    g: {
      group: [
        { data: [1, 2, 3, 4], shape: [2] },
        { data: [5, 6, 7, 8], shape: [2] },
      ],
      offset,
    },
    y: { memref: { data: [0, 0], shape: [2] } },
  });
  const good = run(['f.ir', '--kernel', 'gsum', '--args', json('g2.json', g(2)), '--howmany', '1']);
  assert.equal(good.code, 0, good.stderr);
  assert.deepEqual(JSON.parse(good.stdout).args.y, [3, 4]);
  refused(
    run(['f.ir', '--kernel', 'gsum', '--args', json('g3.json', g(3)), '--howmany', '2']),
    /kernel 'gsum', argument 'g\[0\]': data holds 16 bytes, the offset 3, shape and stride need 20/,
  );
  refused(
    run(['f.ir', '--kernel', 'gsum', '--args', json('g40.json', g(2 ** 40)), '--howmany', '2']),
    /kernel 'gsum', argument 'g\[0\]': data holds 16 bytes, the offset 1099511627776/,
  );
  refused(
    run(['f.ir', '--kernel', 'gsum', '--args', 'g2.json', '--howmany', '3']),
    /kernel 'gsum', argument 'g': the group has 2 members, but howmany 3 launches 3 work-groups/,
  );
  const s = json('scale.json', { a: { memref: { data: [1], shape: [1] } }, n: '9223372036854775807' });
  refused(
    run(['f.ir', '--kernel', 'scale', '--args', s, '--howmany', String(2 ** 40)]),
    /kernel 'scale': 1099511627776 work-groups along z .* more than 4294967295/,
  );
  const fine = run(['f.ir', '--kernel', 'scale', '--args', s]);
  assert.equal(fine.code, 0, fine.stderr);
  assert.equal(JSON.parse(fine.stdout).args.n, '9223372036854775807');
  refused(
    run([
      'f.ir',
      '--kernel',
      'scale',
      '--args',
      json('n-big.json', { a: { memref: { data: [1], shape: [1] } }, n: '9223372036854775808' }),
    ]),
    /argument 'n': 9223372036854775808 is out of range for i64/,
  );
  files['proto-ir.json'] = '{"a": {"memref": {"data": [1], "shape": [1]}}, "__proto__": {"n": 1}}';
  refused(
    run(['f.ir', '--kernel', 'scale', '--args', 'proto-ir.json']),
    /kernel 'scale', argument '__proto__': @scale has no argument '__proto__'/,
  );
  for (const extra of [
    ['--global', '4'],
    ['--local', '1'],
    ['--cl-std', 'CL2.0'],
  ])
    assert.equal(run(['f.ir', '--kernel', 'scale', '--args', s, ...extra]).code, 2);
});

test('the installed bin: the cases that used to kill the process (SIGSEGV, SIGABRT) exit 1 with a refusal', (t) => {
  if (!hasDevice(t)) return;
  const dir = mkdtempSync(join(tmpdir(), 'kernarg-hostile-'));
  try {
    const bin = join(import.meta.dirname, '..', 'bin', 'kernarg.js');
    const put = (name: string, text: string) => (writeFileSync(join(dir, name), text), join(dir, name));
    const ir = put('g.ir', IR);
    const cl = put('k.cl', CL);
    const g = (offset: number) =>
      JSON.stringify({
        g: {
          group: [
            { data: [1, 2, 3, 4], shape: [2] },
            { data: [5, 6, 7, 8], shape: [2] },
          ],
          offset,
        },
        y: { memref: { data: [0, 0], shape: [2] } },
      });
    const cases: [string[], RegExp][] = [
      [
        [ir, '--kernel', 'gsum', '--args', put('a.json', g(0)), '--howmany', '3'],
        /the group has 2 members, but howmany 3/,
      ],
      [[ir, '--kernel', 'gsum', '--args', put('b.json', g(2 ** 40)), '--howmany', '2'], /the offset 1099511627776/],
      [
        [
          ir,
          '--kernel',
          'scale',
          '--args',
          put('c.json', JSON.stringify({ a: { memref: { data: [1], shape: [1] } }, n: 1 })),
          '--howmany',
          String(2 ** 40),
        ],
        /work-groups along z/,
      ],
      [
        [
          cl,
          '--kernel',
          'k',
          '--args',
          put('d.json', JSON.stringify({ ...ok, tmp: { local: 2 ** 31 } })),
          '--global',
          '4',
        ],
        /CL_DEVICE_LOCAL_MEM_SIZE/,
      ],
    ];
    const dev = process.env.KERNARG_DEVICE ? ['--device', process.env.KERNARG_DEVICE] : [];
    for (const [argv, want] of cases) {
      const r = spawnSync(process.execPath, [bin, 'run', ...argv, ...dev], { encoding: 'utf8' });
      assert.equal(r.signal, null, `${argv.join(' ')}: killed by ${r.signal}`);
      assert.equal(r.status, 1, `${argv.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, want);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('kernarg run --api vulkan: the same tinytc refusals (howmany above the members, extents that disagree, f64 for f32)', (t) => {
  const vk = testVulkan(t);
  if (!vk) return;
  vk.dispose();
  files['f.ir'] = IR;
  const api = ['--api', 'vulkan'];
  const g = {
    g: {
      group: [
        { data: [1, 2, 3, 4], shape: [2] },
        { data: [5, 6, 7, 8], shape: [2] },
      ],
      offset: 0,
    },
    y: { memref: { data: [0, 0], shape: [2] } },
  };
  refused(
    run(['f.ir', '--kernel', 'gsum', '--args', json('vg.json', g), '--howmany', '3', ...api]),
    /kernel 'gsum', argument 'g': the group has 2 members, but howmany 3/,
  );
  refused(
    run([
      'f.ir',
      '--kernel',
      'axpy',
      '--args',
      json('vtie.json', {
        a: { memref: { data: [1, 2, 3, 4], shape: [4] } },
        b: { memref: { data: [1, 2, 3], shape: [3] } },
      }),
      ...api,
    ]),
    /kernel 'axpy', argument 'b': axpby needs mode 0 of op\(A\) and B to agree/,
  );
  refused(
    run([
      'f.ir',
      '--kernel',
      'axpy',
      '--args',
      json('vtype.json', {
        a: { memref: { type: 'f64', data: [1], shape: [1] } },
        b: { memref: { data: [1], shape: [1] } },
      }),
      ...api,
    ]),
    /argument 'a\.type': f64 data for a memref of f32/,
  );
  const ok = run([
    'f.ir',
    '--kernel',
    'iadd',
    '--args',
    json('vi32.json', {
      a: { memref: { data: [1, 2, 3], shape: [3] } },
      b: { memref: { data: [10, 20, 30], shape: [3] } },
    }),
    ...api,
  ]);
  assert.equal(ok.code, 0, ok.stderr);
  assert.deepEqual(JSON.parse(ok.stdout).args.b, [11, 22, 33]);
});
