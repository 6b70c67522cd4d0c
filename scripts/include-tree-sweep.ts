// Sweep: every .cl file of a folder (default test/real/darktable) through the build input and its
// include tree, against clang-16 on the real files: kernarg reads the headers `clang -M` lists, and
// `clang -E` on the driver's input (source on stdin, the tree, the driver's options) equals `clang -E`
// on the real file. Prints one line per file and the counts; exits 1 on any difference.
//   npx tsx scripts/include-tree-sweep.ts [folder] [-- extra options: -DNAME[=value], -I<dir>]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type BuildFlag, portableBuild } from '../src/build-input/build-input.js';
import { lowerForDriver } from '../src/driver-build/lower-build.js';
import { includeTree } from '../src/runtime/opencl/include-tree.js';

const dash = process.argv.indexOf('--');
const folder = resolve(process.argv[2] && process.argv[2] !== '--' ? process.argv[2] : 'test/real/darktable');
const extra = dash < 0 ? [] : process.argv.slice(dash + 1);
const clang = process.env.CLANG ?? 'clang-16';
const trees = mkdtempSync(join(tmpdir(), 'kernarg-sweep-trees-'));
process.env.KERNARG_INCLUDE_TREES = trees;
const disk = {
  readFile: (p: string) => {
    try {
      return readFileSync(p, 'utf8');
    } catch {
      return undefined;
    }
  },
};
const flags: BuildFlag[] = [{ kind: 'std', std: 'CL1.2' }];
// -DNAME[=value] and -I<dir> (attached, as the sweep passes them to clang too).
for (const o of extra) {
  const m = /^-D(\w+)(?:=(.*))?$/.exec(o);
  if (m) flags.push({ kind: 'define', name: m[1], ...(m[2] !== undefined ? { value: m[2] } : {}) });
  else if (o.startsWith('-I') && o.length > 2) flags.push({ kind: 'include', dir: o.slice(2) });
}
const nonEmpty = (s: string) =>
  s
    .split('\n')
    .filter((x) => x.trim())
    .join('\n');
let same = 0;
let differ = 0;
let refused = 0;
const t0 = performance.now();
try {
  for (const name of readdirSync(folder)
    .filter((f) => f.endsWith('.cl'))
    .sort()) {
    const path = join(folder, name);
    const { result, input } = lowerForDriver(path, readFileSync(path, 'utf8'), disk, flags);
    const real = ['-x', 'cl', '-cl-std=CL1.2', ...extra, path];
    let deps: string;
    try {
      deps = execFileSync(clang, ['-M', ...real], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    } catch {
      refused++;
      console.log(`${name}: clang-16 refuses it (kernarg: ${result.plan ? 'plans it' : 'refuses it too'})`);
      continue;
    }
    const clangRead = [
      ...new Set(
        deps
          .replace(/\\\n/g, ' ')
          .split(/\s+/)
          .slice(2)
          .filter((p) => p.startsWith(folder) || extra.some((o) => o.startsWith('-I') && p.startsWith(o.slice(2)))),
      ),
    ].sort();
    const kernargRead = Object.keys(input.headers).sort();
    const portable = portableBuild(input, process.cwd()).input;
    const tree = includeTree(portable);
    const treeArgs = tree.options.split(' ').filter((w) => !w.startsWith('-cl-std'));
    const fromTree = execFileSync(clang, ['-E', '-P', '-x', 'cl', '-cl-std=CL1.2', ...treeArgs, '-'], {
      cwd: '/',
      input: tree.source,
      encoding: 'utf8',
      maxBuffer: 1 << 28,
    });
    const fromReal = execFileSync(clang, ['-E', '-P', ...real], { encoding: 'utf8', maxBuffer: 1 << 28 });
    const headersSame = JSON.stringify(clangRead) === JSON.stringify(kernargRead);
    const textSame = nonEmpty(fromTree) === nonEmpty(fromReal);
    if (headersSame && textSame) same++;
    else differ++;
    console.log(
      `${name}: ${kernargRead.length} headers${headersSame ? '' : ` (clang read ${clangRead.length})`}, ` +
        `preprocessed ${textSame ? 'the same' : 'DIFFERENTLY'}`,
    );
  }
} finally {
  rmSync(trees, { recursive: true, force: true });
}
console.log(
  `${same} same, ${differ} different, ${refused} refused by clang-16, ` +
    `in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
);
process.exitCode = differ ? 1 : 0;
