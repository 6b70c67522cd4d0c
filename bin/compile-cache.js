// Loads a CommonJS bundle of dist/ with V8's code cache kept on disk, so a later call neither parses
// the bundle nor compiles again the functions an earlier call ran. Node 22.1 and later do this
// themselves (module.enableCompileCache); for Node 20 it is done here with vm.Script's cachedData,
// the cache made after the command ran (so it holds the functions compiled lazily while it ran).
// Measured on darktable's small files (`kernarg lower --target amdhsa --format json`, Node 20):
// the bundle's parse and the lazy compiles are a quarter of such a call's CPU time.
// The cache folder: KERNARG_COMPILE_CACHE_DIR, else <tmpdir>/kernarg-compile-cache-<uid>; a file per
// bundle, Node version and bundle content; any failure to read or write it only loses the cache.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import module, { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';

/** Where the cache lives; undefined when KERNARG_NO_COMPILE_CACHE turns it off. */
function cacheDir() {
  if (process.env.KERNARG_NO_COMPILE_CACHE) return undefined;
  return (
    process.env.KERNARG_COMPILE_CACHE_DIR ||
    join(tmpdir(), `kernarg-compile-cache-${process.getuid ? process.getuid() : 'user'}`)
  );
}

/** Node's own compile cache where the running Node has it (22.1 and later), in the same folder. */
export function enableNodeCompileCache() {
  const dir = cacheDir();
  if (dir && typeof module.enableCompileCache === 'function') module.enableCompileCache(dir);
}

/**
 * The exports of the CommonJS bundle `file`, and a function to call once the command has run
 * (it writes the cache where there was none or V8 refused it).
 */
export function requireCached(file) {
  const dir = cacheDir();
  // Node's cache, where it has one, is on already (enableNodeCompileCache).
  if (typeof module.enableCompileCache === 'function')
    return { exports: createRequire(import.meta.url)(file), done: () => {} };
  const source = readFileSync(file, 'utf8');
  if (!dir) return { exports: run(new Script(wrap(source), { filename: file }), file), done: () => {} };
  // V8 checks a cache against the source's length only: the content's hash names the file.
  const hash = createHash('sha1').update(source).digest('hex').slice(0, 16);
  const path = join(dir, `${basename(file)}-${process.version}-${process.arch}-${hash}.v8cache`);
  let cachedData;
  try {
    cachedData = readFileSync(path);
  } catch {
    cachedData = undefined;
  }
  const script = new Script(wrap(source), { filename: file, cachedData });
  const exports = run(script, file);
  const done = () => {
    if (cachedData && !script.cachedDataRejected) return;
    try {
      mkdirSync(dir, { recursive: true });
      // Written aside, then renamed: a call that starts meanwhile reads the old file or the whole new one.
      const part = `${path}.${process.pid}`;
      writeFileSync(part, script.createCachedData());
      renameSync(part, path);
    } catch {
      // A read-only or full disk: the next call compiles again.
    }
  };
  return { exports, done };
}

const wrap = (source) => `(function (exports, require, module, __filename, __dirname) {${source}\n})`;

function run(script, file) {
  const mod = { exports: {} };
  script.runInThisContext()(mod.exports, createRequire(file), mod, file, dirname(file));
  return mod.exports;
}
