// The fuzz workers run on JavaScript compiled here, not under tsx: tsx compiles with esbuild's
// keepNames, which wraps every function and class made in hot code in a `__name` call (~16% of a
// worker's time with its native `set natives`), and its loader hooks and source maps cost again.
// Each .ts file of src/ and test/ is transpiled alone (no bundle), into the same layout under
// .fuzz/js/<hash of the sources>/, so relative imports resolve as before, the coverage filter still
// selects src/ by its path, and `import.meta` still names the .ts file (targets read fixtures beside them).
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { transformSync, version } from 'esbuild';

const ROOT = join(import.meta.dirname, '..', '..');
/** The trees a worker's imports can reach (targets import src/ and test/support/). */
const TREES = ['src', 'test'];
/** Compiled trees older than this, other than the current one, are removed (a campaign runs ~20 min). */
const STALE_MS = 6 * 3600_000;

function sources(): string[] {
  const out: string[] = [];
  for (const tree of TREES)
    for (const e of readdirSync(join(ROOT, tree), { withFileTypes: true, recursive: true }))
      if (e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.d.ts')) out.push(join(e.parentPath, e.name));
  return out.sort();
}

/**
 * The directory holding the compiled src/ and test/ (compiled once per content: every fuzz job of a
 * campaign started at once finds it or makes it, each in its own temporary directory renamed into place).
 */
export function compiledTree(outRoot = join(ROOT, '.fuzz', 'js')): string {
  const files = sources();
  const texts = files.map((f) => readFileSync(f, 'utf8'));
  const hash = createHash('sha1').update(`esbuild ${version}\n`);
  files.forEach((f, i) => hash.update(`${relative(ROOT, f)}\n${texts[i].length}\n${texts[i]}`));
  const id = hash.digest('hex').slice(0, 16);
  const dir = join(outRoot, id);
  if (existsSync(join(dir, '.complete'))) return dir;
  const tmp = join(outRoot, `${id}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`);
  files.forEach((f, i) => {
    const out = join(tmp, relative(ROOT, f)).replace(/\.ts$/, '.js');
    const { code } = transformSync(texts[i], {
      loader: 'ts',
      format: 'esm',
      target: 'node20',
      sourcefile: f,
      // A finding's stack names the .ts line (the worker turns source maps on).
      sourcemap: 'inline',
      sourcesContent: false,
      // tsconfig.json's target (ES2022) defines class fields as tsc does.
      tsconfigRaw: { compilerOptions: { useDefineForClassFields: true } },
      define: {
        'import.meta.dirname': JSON.stringify(dirname(f)),
        'import.meta.filename': JSON.stringify(f),
        'import.meta.url': JSON.stringify(pathToFileURL(f).href),
      },
    });
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, code);
  });
  writeFileSync(join(tmp, '.complete'), '');
  try {
    renameSync(tmp, dir);
  } catch {
    // Another job made the same tree first.
    rmSync(tmp, { recursive: true, force: true });
    if (!existsSync(join(dir, '.complete'))) throw new Error(`cannot make the compiled fuzz tree ${dir}`);
  }
  for (const e of readdirSync(outRoot, { withFileTypes: true })) {
    // Another job's temporary tree can be renamed into place between the listing and the stat.
    const stat = e.name === id ? undefined : statSync(join(outRoot, e.name), { throwIfNoEntry: false });
    if (stat && Date.now() - stat.mtimeMs > STALE_MS) rmSync(join(outRoot, e.name), { recursive: true, force: true });
  }
  return dir;
}

// `tsx test/fuzz/compile-js.ts`: compiles once before many jobs start (scripts/fuzz-many.sh), printing the tree.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) console.log(compiledTree());
