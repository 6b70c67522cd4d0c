// `kernarg run --args`: a JSON syntax error at line:col of the file with a code frame, and every
// mistake of a file in one run, each at the line:col of the value it refuses. The scanner that
// finds the places is checked against JSON.parse, the oracle of what JSON is.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import type { OpenCLPlan } from '../src/abi/plan.js';
import { argsDiagnostics } from '../src/cli/args-file.js';
import { runCliWith } from '../src/cli/main.js';
import { memoryHost } from '../src/frontend/opencl-c/index.js';
import { lower } from '../src/lower.js';
import { ARG_PROBLEM_LIMIT, ArgsError } from '../src/runtime/args/arg-problems.js';
import { placesOf, scanJson } from '../src/runtime/args/json-text.js';
import { readOpenCLArgs } from '../src/runtime/args/read-args.js';
import { testDevice } from './support/device.js';

function run(argv: string[], files: Record<string, string>) {
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
}

const K =
  'typedef struct { int a; float b; } P;\nkernel void k(global float *x, global int *y, P p, int n, local float ' +
  '*tmp) {}\n';

test('a JSON syntax error is told at line:col of the args file, with a code frame, exit 1 (no device needed)', () => {
  const text = '{\n  "x": {"buffer": "float", "size": 4},\n  "n": 3,\n}\n';
  const r = run(['k.cl', '--kernel', 'k', '--args', 'a.json', '--global', '4'], { 'k.cl': K, 'a.json': text });
  assert.equal(r.code, 1);
  assert.equal(r.stdout, '');
  assert.equal(
    r.stderr,
    [
      "a.json:4:1: error: not valid JSON: expected a key after ',' (JSON allows no trailing comma) [KA6010]",
      ' 4 | }',
      '   | ^',
      '1 error generated.',
      '',
    ].join('\n'),
  );
  for (const [bad, place, message] of [
    ['{"x": 1\n  "y": 2}', '2:3', "expected ',' or '}' after an object member"],
    ['{"x": NaN}', '1:7', 'NaN is not JSON: write it as the string "NaN"'],
    ["{'x': 1}", '1:2', 'JSON keys take double quotes, not single'],
    ['{"x": [1, 2', '1:7', "this '[' is never closed"],
    ['', '1:1', 'the text is empty: expected a JSON value'],
    ['{"x": 1} {}', '1:10', 'unexpected text after the JSON value'],
  ] as const) {
    const b = run(['k.cl', '--kernel', 'k', '--args', 'b.json', '--global', '4'], { 'k.cl': K, 'b.json': bad });
    assert.equal(b.code, 1);
    assert.ok(b.stderr.startsWith(`b.json:${place}: error: not valid JSON: ${message} [KA6010]\n`), b.stderr);
  }
});

test('scanJson agrees with JSON.parse on what is JSON: generated values, their texts cut and spliced', () => {
  const texts = fc.oneof(
    fc.json(),
    fc
      .tuple(
        fc.json(),
        fc.nat(),
        fc.nat(3),
        fc.constantFrom('', ',', ']', '}', '"', ':', '{', '[', ' ', '\\', '-', '0', 'e', '\n', "'"),
      )
      .map(([t, at, cut, put]) => {
        const i = at % (t.length + 1);
        return t.slice(0, i) + put + t.slice(i + cut);
      }),
  );
  fc.assert(
    fc.property(texts, (text) => {
      let valid = true;
      try {
        JSON.parse(text);
      } catch {
        valid = false;
      }
      const e = scanJson(text);
      assert.equal(e === undefined, valid, `${JSON.stringify(text)}: ${e?.message}`);
      if (e) assert.ok(e.start >= 0 && e.start <= text.length && e.end <= text.length);
    }),
    { numRuns: 3000 },
  );
  // Nesting far deeper than any stack: no overflow.
  assert.equal(scanJson('['.repeat(200000) + ']'.repeat(200000)), undefined);
  assert.match(scanJson('['.repeat(200000))!.message, /expected a value, found the end/);
});

test("placesOf finds each value's text: every leaf of a generated object, by the reader's path", () => {
  const key = fc.constantFrom('a', 'b', 'data', 'x y', '__proto__', 'é');
  const leaf = fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.string({ maxLength: 4 }));
  const { tree } = fc.letrec((tie) => ({
    tree: fc.oneof(
      { depthSize: 'small' },
      leaf,
      fc.array(tie('tree'), { maxLength: 3 }),
      fc.dictionary(key, tie('tree'), { maxKeys: 3 }),
    ),
  }));
  fc.assert(
    fc.property(fc.dictionary(fc.constantFrom('p', 'q'), tree, { minKeys: 1 }), fc.boolean(), (value, pretty) => {
      const text = JSON.stringify(value, null, pretty ? 2 : undefined);
      const leaves: [string, unknown][] = [];
      const walk = (v: unknown, path: string) => {
        if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${path}[${i}]`));
        else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, `${path}.${k}`);
        else leaves.push([path, v]);
      };
      for (const [k, v] of Object.entries(value)) walk(v, k);
      // Keys with a dot or a bracket are not a reader's path; the reader's keys never have them.
      const readable = leaves.filter(([p]) => !/x y|é/.test(p));
      const places = placesOf(
        text,
        readable.map(([p]) => p),
      );
      readable.forEach(([p, v], i) => {
        const place = places[i];
        assert.ok(place, p);
        assert.deepEqual(JSON.parse(text.slice(place.start, place.end)), v, p);
      });
    }),
    { numRuns: 300 },
  );
  // The tinytc forms: `a.data[1]` is written a.memref.data[1], `g[0].shape[0]` g.group[0].memref.shape[0].
  const ir = '{"a": {"memref": {"data": [1, "x"]}}, "g": {"group": [{"memref": {"shape": [7]}}]}}';
  const [a, g, missing] = placesOf(ir, ['a.data[1]', 'g[0].shape[0]', 'nope']);
  assert.equal(ir.slice(a!.start, a!.end), '"x"');
  assert.equal(ir.slice(g!.start, g!.end), '7');
  assert.equal(ir.slice(missing!.start, missing!.end), ir, 'a missing argument is placed at the whole object');
});

const plan = (src: string) =>
  (lower('k.cl', src, memoryHost({}), { target: 'opencl', format: 'json' }).plan as OpenCLPlan).kernels[0];
const LIMITS = { maxBytes: 1 << 20, maxElements: 1 << 16 };

test('every mistake of an args file in one reading, each at the line:col of its value (values checked as the packer writes them)', () => {
  const text = `{
  "x": {"buffer": "float", "data": [1, "two", 3]},
  "y": {"buffer": "int", "sizee": 4},
  "p": {"a": 1.5, "b": 2},
  "n": "many",
  "tpm": 1
}
`;
  let error: unknown;
  try {
    readOpenCLArgs(JSON.parse(text), plan(K), LIMITS);
  } catch (e) {
    error = e;
  }
  assert.ok(error instanceof ArgsError);
  const out = argsDiagnostics('a.json', text, error);
  const heads = out.split('\n').filter((l) => / error: /.test(l));
  assert.deepEqual(heads, [
    "a.json:6:10: error: kernel 'k', argument 'tpm': 'k' has no argument 'tpm' (it takes x, y, p, n, tmp); did you " +
      "mean 'tmp'? [KA6011]",
    `a.json:2:40: error: kernel 'k', argument 'x.data[1]': expected a number for float, got the string "two" [KA6011]`,
    "a.json:3:35: error: kernel 'k', argument 'y.sizee': unexpected key 'sizee' (this form takes buffer, data, " +
      "size); did you mean 'size'? [KA6011]",
    "a.json:4:14: error: kernel 'k', argument 'p.a': 1.5 is not an integer (type int) [KA6011]",
    "a.json:5:8: error: kernel 'k', argument 'n': expected an integer for int, got string many [KA6011]",
    "a.json:1:1: error: kernel 'k', argument 'tmp': missing [KA6011]",
  ]);
  assert.match(out, /\n 2 \|   "x": \{"buffer": "float", "data": \[1, "two", 3\]\},\n   \| {40}\^~~~~\n/);
  assert.match(out, /6 errors generated\.\n$/);
  // Names from a fixed list get the nearest one.
  assert.throws(
    () =>
      readOpenCLArgs(
        { s: { sampler: { addressing: 'clamp_to_edeg' } } },
        plan('kernel void k(sampler_t s) {}'),
        LIMITS,
      ),
    /argument 's\.sampler\.addressing': .*got the string "clamp_to_edeg"; did you mean 'clamp_to_edge'\?/,
  );
  assert.throws(
    () => readOpenCLArgs({ s: { sampler: { filter: 'linaer' } } }, plan('kernel void k(sampler_t s) {}'), LIMITS),
    /did you mean 'linear'\?/,
  );
  // Capped: a file with more mistakes than the limit stops there and says so.
  const many = JSON.stringify({
    x: { buffer: 'float', data: Array(500).fill('z') },
    y: { buffer: 'int', size: 1 },
    p: { a: 1, b: 2 },
    n: 1,
    tmp: { local: 4 },
  });
  let capped: unknown;
  try {
    readOpenCLArgs(JSON.parse(many), plan(K), LIMITS);
  } catch (e) {
    capped = e;
  }
  assert.ok(capped instanceof ArgsError && capped.stopped);
  assert.equal(capped.problems.length, ARG_PROBLEM_LIMIT);
  assert.match(
    argsDiagnostics('m.json', many, capped),
    new RegExp(
      `note: too many mistakes in the arguments; stopping now \\(the first ${ARG_PROBLEM_LIMIT} are shown\\) ` +
        `\\[KA6012\\]`,
    ),
  );
});

test('kernarg run: every mistake at once, at line:col, exit 1; a kernel name gets a "did you mean"', (t) => {
  const ctx = testDevice(t);
  if (!ctx) return;
  ctx.dispose();
  const text =
    '{\n  "x": {"buffer": "float", "size": 4},\n  "y": {"buffer": "float", "size": 4},\n  "p": {"a": 1, "b": 2},\n  ' +
    '"n": 1e40,\n  "tmp": {"local": 0}\n}\n';
  const r = run(['k.cl', '--kernel', 'k', '--args', 'a.json', '--global', '4'], { 'k.cl': K, 'a.json': text });
  assert.equal(r.code, 1);
  assert.equal(r.stdout, '');
  assert.match(
    r.stderr,
    /^a\.json:3:19: error: kernel 'k', argument 'y\.buffer': a float buffer for int\*: the kernel reads int \[KA6011\]$/m,
  );
  assert.match(r.stderr, /^a\.json:5:8: error: kernel 'k', argument 'n': 1e\+40 is out of range for int/m);
  assert.match(
    r.stderr,
    /^a\.json:6:10: error: kernel 'k', argument 'tmp': \{"local": N\} takes a positive whole number/m,
  );
  assert.match(r.stderr, /3 errors generated\.\n$/);
  const typo = run(['k.cl', '--kernel', 'kk', '--args', 'a.json', '--global', '4'], { 'k.cl': K, 'a.json': text });
  assert.equal(typo.code, 1);
  assert.equal(typo.stderr, "k.cl: error: no kernel named 'kk' in this file (it has k); did you mean 'k'? [KA6013]\n");
});

test("darktable's basic.cl (real code, headers from its folder): a kernel typo and an args file's three mistakes, in one run each", (t) => {
  const ctx = testDevice(t);
  if (!ctx) return;
  ctx.dispose();
  const dir = join(import.meta.dirname, 'real', 'darktable');
  const cl = join(dir, 'basic.cl');
  const disk = (argv: string[], files: Record<string, string>) => {
    let stderr = '';
    const dev = process.env.KERNARG_DEVICE ? ['--device', process.env.KERNARG_DEVICE] : [];
    const io = {
      stdout: () => {},
      stderr: (s: string) => (stderr += s),
      readFile: (p: string) => files[p] ?? (p.startsWith(dir) ? readFileSync(p, 'utf8') : undefined),
      color: false,
    };
    return { code: runCliWith(['run', ...argv, ...dev], io), stderr };
  };
  const ok =
    '{"in": {"image": {"width": 4, "height": 3, "channelOrder": "RGBA", "channelType": "FLOAT"}}, "out": {"image": ' +
    '{"width": 4, "height": 3, "channelOrder": "RGBA", "channelType": "FLOAT"}}, "width": 4, "height": 3, "black": ' +
    '0, "scale": 2}';
  const typo = disk([cl, '--kernel', 'exposur', '--args', 'ok.json', '--global', '4,3'], { 'ok.json': ok });
  assert.equal(typo.code, 1);
  assert.match(
    typo.stderr,
    /^\S+basic\.cl: error: no kernel named 'exposur' in this file \(it has .*\bexposure\b.*\); did you mean 'exposure'\? \[KA6013\]\n$/,
  );
  const bad = `{
  "in": {"image": {"width": 4, "height": 3, "channelOrder": "RGBA", "channelType": "FLAOT"}},
  "out": {"image": {"width": 4, "height": 3, "channelOrder": "RGBA", "channelType": "FLOAT"}},
  "width": 4, "height": 3.5, "black": 0,
  "scael": 2
}`;
  const r = disk([cl, '--kernel', 'exposure', '--args', 'bad.json', '--global', '4,3'], { 'bad.json': bad });
  assert.equal(r.code, 1);
  assert.deepEqual(
    r.stderr
      .split('\n')
      .filter((l) => / error: /.test(l))
      .map((l) => l.replace(/ \[KA6011\]$/, '')),
    [
      "bad.json:5:12: error: kernel 'exposure', argument 'scael': 'exposure' has no argument 'scael' (it takes in, " +
        "out, width, height, black, scale); did you mean 'scale'?",
      "bad.json:2:84: error: kernel 'exposure', argument 'in.image.channelType': expected one of SNORM_INT8, " +
        'SNORM_INT16, UNORM_INT8, UNORM_INT16, SIGNED_INT8, SIGNED_INT16, SIGNED_INT32, UNSIGNED_INT8, ' +
        'UNSIGNED_INT16, UNSIGNED_INT32, HALF_FLOAT, FLOAT, got the string "FLAOT"; did you mean \'FLOAT\'?',
      "bad.json:4:25: error: kernel 'exposure', argument 'height': 3.5 is not an integer (type int)",
      "bad.json:1:1: error: kernel 'exposure', argument 'scale': missing",
    ],
  );
});
