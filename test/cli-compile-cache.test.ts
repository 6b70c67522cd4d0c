// bin/kernarg.js keeps V8's code cache of the lower bundle on disk (bin/compile-cache.js): Node's own
// on 22.1 and later, vm.Script's cachedData on Node 20. A call with the cache, without it, with a
// cache V8 refuses and with a folder it cannot write prints the same output; on Node 20 the cache is
// written once, left alone while V8 takes it, and written again when V8 refuses it.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import module from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

const bin = join(import.meta.dirname, '..', 'bin', 'kernarg.js');
const SOURCE = `typedef struct { float a; int b[3]; } P;
kernel void k(global float *x, constant P *p, int n, float4 v, local int *l) { if (n) x[0] = p->a * v.x; }
`;
const nodeHasCache = typeof (module as { enableCompileCache?: unknown }).enableCompileCache === 'function';

function lower(file: string, env: Record<string, string>): string {
  const r = spawnSync(process.execPath, [bin, 'lower', file, '--target', 'amdhsa', '--format', 'json'], {
    encoding: 'utf8',
    env: { ...process.env, KERNARG_NO_COMPILE_CACHE: '', ...env },
  });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr, '');
  return r.stdout;
}

test('lower prints the same with the compile cache, without it, refused by V8, and unwritable', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kernarg-compile-cache-'));
  const file = join(dir, 'k.cl');
  writeFileSync(file, SOURCE);
  const cache = join(dir, 'cache');
  const plain = lower(file, { KERNARG_NO_COMPILE_CACHE: '1', KERNARG_COMPILE_CACHE_DIR: cache });
  assert.match(plain, /"name": "k"/);
  assert.throws(() => readdirSync(cache), 'KERNARG_NO_COMPILE_CACHE writes no cache');

  assert.equal(lower(file, { KERNARG_COMPILE_CACHE_DIR: cache }), plain);
  const written = readdirSync(cache);
  assert.ok(written.length > 0, 'the first call writes the cache');
  assert.equal(lower(file, { KERNARG_COMPILE_CACHE_DIR: cache }), plain);

  // A cache folder under a regular file cannot be made: the call goes on without it.
  assert.equal(lower(file, { KERNARG_COMPILE_CACHE_DIR: join(file, 'cache') }), plain);

  if (nodeHasCache) return; // Node's own cache: its files are Node's business.
  assert.equal(written.length, 1);
  assert.match(written[0], /^cli-lower\.cjs-v[\d.]+-\w+-[0-9a-f]{16}\.v8cache$/);
  const path = join(cache, written[0]);
  const bytes = readFileSync(path);
  const mtime = statSync(path).mtimeMs;
  assert.equal(lower(file, { KERNARG_COMPILE_CACHE_DIR: cache }), plain);
  assert.equal(statSync(path).mtimeMs, mtime, 'a cache V8 takes is not written again');
  // Garbage of the same name: V8 refuses it, the call compiles, and the cache is written anew.
  writeFileSync(path, Buffer.alloc(bytes.length, 0x5a));
  assert.equal(lower(file, { KERNARG_COMPILE_CACHE_DIR: cache }), plain);
  assert.notDeepEqual(readFileSync(path), Buffer.alloc(bytes.length, 0x5a));
  assert.deepEqual(readdirSync(cache), written, 'no part file is left behind');
});
