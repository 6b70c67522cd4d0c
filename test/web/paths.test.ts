// The page's file paths: what names it accepts (so a share link cannot smuggle `../` or an absolute
// path into the include search), how an opened folder's paths map onto them, and which decoded files
// survive. Generated paths (fast-check) and hand-written ones; the preprocessor's own join is the oracle
// that an accepted path names a file inside the page's folder.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { joinPath } from '../../src/frontend/opencl-c/include-path.js';
import { FILE_PATH, relativeToFolder, validFiles } from '../../web/src/paths.js';

const segment = fc.stringMatching(/^[\w.+-]{1,8}$/);
const anyPath = fc
  .array(fc.oneof(segment, fc.constantFrom('.', '..', '', 'a b', 'é')), { minLength: 1, maxLength: 5 })
  .map((s) => s.join('/'));

test('an accepted path stays inside the folder: the preprocessor joins it to itself, with no . or .. segment', () => {
  fc.assert(
    fc.property(
      fc.oneof(
        anyPath,
        anyPath.map((p) => `/${p}`),
      ),
      (p) => {
        const segs = p.split('/');
        const clean =
          !p.startsWith('/') && segs.every((s) => s !== '' && s !== '.' && s !== '..' && /^[\w.+-]+$/.test(s));
        assert.equal(FILE_PATH.test(p), clean, p);
        if (clean) assert.equal(joinPath('.', p), p, 'the include search finds it under this very name');
      },
    ),
  );
  for (const bad of ['../etc/passwd', '/abs.h', 'a//b.h', 'a/./b.h', 'a/../b.h', '..', '.', ''])
    assert.equal(FILE_PATH.test(bad), false, bad);
  for (const good of ['common.h', 'sub/types.h', '.hidden.h', 'a..b.h', 'x+y-z_1.cl'])
    assert.equal(FILE_PATH.test(good), true, good);
});

test("an opened folder's own name is dropped from every path, and only then", () => {
  fc.assert(
    fc.property(
      segment,
      fc.array(fc.array(segment, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 6 }),
      (top, files) => {
        const inFolder = files.map((f) => [top, ...f].join('/'));
        assert.deepEqual(
          relativeToFolder(inFolder),
          files.map((f) => f.join('/')),
        );
        // Files not all under one folder keep their paths.
        const loose = [...inFolder, 'other.h'];
        assert.deepEqual(relativeToFolder(loose), loose);
      },
    ),
  );
  assert.deepEqual(
    relativeToFolder(['/darktable/bloom.cl', '/darktable/common.h']),
    ['bloom.cl', 'common.h'],
    'a dropped folder (paths from the drop root)',
  );
  assert.deepEqual(relativeToFolder(['bloom.cl']), ['bloom.cl'], 'one picked file');
});

test('decoded files: only valid, distinct paths other than the main file, with text', () => {
  const raw = [
    { path: 'common.h', text: 'a' },
    { path: 'common.h', text: 'again' },
    { path: '../up.h', text: 'x' },
    { path: 'main.cl', text: 'the main file' },
    { path: 'sub/x.h', text: 7 },
    null,
    'common.h',
    { path: 'sub/y.h', text: '' },
  ];
  assert.deepEqual(validFiles(raw, 'main.cl'), [
    { path: 'common.h', text: 'a' },
    { path: 'sub/y.h', text: '' },
  ]);
  assert.deepEqual(validFiles({ path: 'a.h', text: '' }, 'main.cl'), []);
  assert.deepEqual(validFiles(undefined, 'main.cl'), [], 'a link from before files existed');
});
