import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import {
  type BuildInput,
  buildInputProblem,
  driverOptions,
  driverSource,
  frontendOptions,
  portableBuild,
  shownOptions,
} from '../src/build-input/build-input.js';
import { lowerForDriver } from '../src/driver-build/lower-build.js';
import { commonFolder, isTreePath, joinPaths, normalize, relativeTo } from '../src/build-input/paths.js';

const DARKTABLE = join(import.meta.dirname, 'real', 'darktable');
const disk = {
  readFile: (p: string) => {
    try {
      return readFileSync(p, 'utf8');
    } catch {
      return undefined;
    }
  },
};

test('build input: darktable basic.cl records every header its preprocessor read, once each, with the bytes on disk', () => {
  const path = join(DARKTABLE, 'basic.cl');
  const { result, input } = lowerForDriver(path, readFileSync(path, 'utf8'), disk, [{ kind: 'std', std: 'CL1.2' }]);
  assert.ok(result.plan, JSON.stringify(result.diagnostics));
  assert.deepEqual(
    Object.keys(input.headers)
      .map((p) => p.slice(DARKTABLE.length + 1))
      .sort(),
    ['color_conversion.h', 'colorspace.h', 'common.h', 'diffuse.cl', 'noise_generator.h', 'rgb_norms.h'],
  );
  for (const [p, text] of Object.entries(input.headers)) assert.equal(text, readFileSync(p, 'utf8'), p);
  const portable = portableBuild(input, '/elsewhere');
  assert.equal(portable.root, DARKTABLE);
  assert.equal(portable.input.path, 'basic.cl');
  assert.equal(shownOptions(portable.input), '-cl-std=CL1.2');
  assert.equal(buildInputProblem(portable.input), undefined);
  assert.ok(!JSON.stringify(portable.input.headers).includes(DARKTABLE), 'no absolute path in the portable input');
});

test("build input: the driver gets the main file's folder first, then -I in order, and the macros in command-line order", () => {
  const input: BuildInput = {
    path: 'src/k/main.cl',
    source: '#include "a.h"\n',
    headers: { 'src/k/a.h': '#include "b.h"\n', 'inc/one/b.h': '' },
    flags: [
      { kind: 'define', name: 'X', value: '1' },
      { kind: 'include', dir: 'inc/one' },
      { kind: 'std', std: 'CL2.0' },
      { kind: 'undefine', name: 'X' },
      { kind: 'include', dir: 'inc/two' },
      { kind: 'define', name: 'S', value: 'a b' },
    ],
    extra: '-cl-mad-enable',
  };
  // OpenCL's build options have no -U: the driver gets the -D's that stand and an #undef before the source,
  // which includes the main file from the tree (so its folder is searched first for its own includes only).
  assert.equal(driverOptions(input, '/t'), '-cl-std=CL2.0 -I /t/inc/one -I /t/inc/two -D "S=a b" -cl-mad-enable');
  assert.equal(driverSource(input, '/t'), '#undef X\n#include "/t/src/k/main.cl"\n');
  assert.equal(driverSource(input, null), '#undef X\n#line 1\n#include "a.h"\n');
  assert.equal(driverSource({ ...input, flags: [] }, null), input.source);
  assert.equal(shownOptions(input), '-cl-std=CL2.0 -I inc/one -I inc/two -D X=1 -U X -D "S=a b" -cl-mad-enable');
  assert.equal(
    driverOptions({ ...input, headers: {} }, null),
    '-cl-std=CL2.0 -D "S=a b" -cl-mad-enable',
    'no headers: no tree, no -I',
  );
  const redefined: BuildInput = {
    ...input,
    flags: [
      { kind: 'define', name: 'X', value: '5' },
      { kind: 'undefine', name: 'X' },
      { kind: 'define', name: 'F(a)', value: 'a' },
      { kind: 'define', name: 'X', value: '2' },
      { kind: 'undefine', name: 'F' },
    ],
  };
  assert.equal(driverOptions(redefined, null), '-cl-std=CL1.2 -D X=2 -cl-mad-enable');
  assert.equal(driverSource(redefined, null), '#undef F\n#line 1\n#include "a.h"\n');
  assert.deepEqual(frontendOptions(input), {
    std: 'CL2.0',
    includeDirs: ['inc/one', 'inc/two'],
    commandLine: [{ define: 'X', value: '1' }, { undefine: 'X' }, { define: 'S', value: 'a b' }],
  });
});

test('build input: relative and absolute paths, with ".." and -I outside the source folder, become one tree under their common folder', () => {
  const input: BuildInput = {
    path: 'k/../k/main.cl',
    source: '',
    headers: { 'k/a.h': 'a', '../vendor/inc/b.h': 'b', '/work/p/inc2/c.h': 'c' },
    flags: [
      { kind: 'include', dir: '../vendor/inc' },
      { kind: 'include', dir: '/work/p/inc2' },
    ],
  };
  const p = portableBuild(input, '/work/p');
  assert.equal(p.root, '/work');
  assert.equal(p.input.path, 'p/k/main.cl');
  assert.deepEqual({ ...p.input.headers }, { 'p/k/a.h': 'a', 'vendor/inc/b.h': 'b', 'p/inc2/c.h': 'c' });
  assert.deepEqual(p.input.flags, [
    { kind: 'include', dir: 'vendor/inc' },
    { kind: 'include', dir: 'p/inc2' },
  ]);
  assert.equal(buildInputProblem(p.input), undefined);
  // A file at the root of the file system: paths relative to '/'.
  assert.deepEqual(
    { ...portableBuild({ path: '/m.cl', source: '', headers: { '/h.h': '' }, flags: [] }, '/x').input.headers },
    { 'h.h': '' },
  );
});

test('build input: generated folder layouts rebase into tree paths that join back to the same files', () => {
  const part = fc.constantFrom('a', 'b', 'inc', 'k', '..', '.');
  const rel = fc.array(part, { minLength: 0, maxLength: 4 }).map((xs) => xs.join('/'));
  fc.assert(
    fc.property(rel, fc.array(rel, { maxLength: 4 }), fc.array(rel, { maxLength: 3 }), (mainDir, headerDirs, incs) => {
      const cwd = '/w/x/y';
      const input: BuildInput = {
        path: joinPaths(mainDir || '.', 'main.cl'),
        source: '',
        headers: Object.fromEntries(headerDirs.map((d, i) => [joinPaths(d || '.', `h${i}.h`), `h${i}`])),
        flags: incs.map((dir) => ({ kind: 'include', dir: dir || '.' })),
      };
      const p = portableBuild(input, cwd);
      assert.equal(buildInputProblem(p.input), undefined, JSON.stringify(p.input));
      // Each path of the tree, joined to the root, is the file kernarg read.
      assert.equal(joinPaths(p.root, p.input.path), joinPaths(cwd, input.path));
      const back = Object.keys(p.input.headers)
        .map((h) => joinPaths(p.root, h))
        .sort();
      assert.deepEqual(
        back,
        Object.keys(input.headers)
          .map((h) => joinPaths(cwd, h))
          .sort(),
      );
      for (const [f, g] of input.flags.map((f, i) => [f, p.input.flags[i]] as const)) {
        if (f.kind === 'include' && g.kind === 'include') assert.equal(joinPaths(p.root, g.dir), joinPaths(cwd, f.dir));
      }
    }),
    { numRuns: 300 },
  );
});

test('build input: paths that would leave the tree, and malformed inputs, are refused with the reason', () => {
  const ok: BuildInput = { path: 'm.cl', source: '', headers: { 'a/b.h': '' }, flags: [{ kind: 'std', std: 'CL1.2' }] };
  assert.equal(buildInputProblem(ok), undefined);
  const bad: [unknown, RegExp][] = [
    [null, /object/],
    [{ ...ok, path: '/abs/m.cl' }, /"path"/],
    [{ ...ok, headers: { '../../etc/passwd': 'x' } }, /header '..\/..\/etc\/passwd'/],
    [{ ...ok, headers: { '/etc/x.h': 'x' } }, /header '\/etc\/x.h'/],
    [{ ...ok, headers: { 'a//b.h': 'x' } }, /header/],
    [{ ...ok, headers: { 'a.h': 3 } }, /text must be a string/],
    [{ ...ok, headers: [] }, /"headers"/],
    [{ ...ok, flags: [{ kind: 'include', dir: '..' }] }, /flag/],
    [{ ...ok, flags: [{ kind: 'define', name: 'X Y' }] }, /flag/],
    [{ ...ok, flags: [{ kind: 'define', name: 'X', value: 'a\nb' }] }, /flag/],
    [{ ...ok, flags: [{ kind: 'std', std: 'CL9.9' }] }, /flag/],
    [{ ...ok, flags: [{ kind: 'link', dir: 'x' }] }, /flag/],
    [{ ...ok, extra: 1 }, /"extra"/],
  ];
  for (const [x, why] of bad) assert.match(buildInputProblem(x) ?? '(accepted)', why, JSON.stringify(x));
});

test('paths: normalize, common folder, relative, tree paths', () => {
  assert.equal(normalize('a/./b/../c'), 'a/c');
  assert.equal(normalize('../a/../../b'), '../../b');
  assert.equal(normalize('/a/../../b'), '/b');
  assert.equal(commonFolder(['/a/b/c', '/a/b', '/a/bc']), '/a');
  assert.equal(commonFolder(['/x', '/y']), '/');
  assert.equal(relativeTo('/a', '/a/b/c'), 'b/c');
  assert.equal(relativeTo('/a', '/a'), '.');
  assert.equal(relativeTo('/', '/a'), 'a');
  assert.ok(isTreePath('a/b.h'));
  for (const p of ['', '.', '/a', 'a/../b', 'a/./b', 'a//b', 'a\0b', 'a"b', 'a\\b', 'a\nb'])
    assert.ok(!isTreePath(p), p);
});
