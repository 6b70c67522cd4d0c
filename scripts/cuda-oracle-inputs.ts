// Gathers the OpenCL C the NVIDIA oracle compiles on the GPU machine (scripts/gpu-nvidia-ptx.py):
// every fixture clang compiles and a sample of the real-world corpus (darktable and silx, with
// their hosts' build options), each with clang-16's nvptx64-nvidia-nvcl PTX beside it, into
// gpu-input/ (not committed: it is carried to the device). Run: npx tsx scripts/cuda-oracle-inputs.ts
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fixtureFiles } from '../test/support/fixtures.js';
import { CORPORA } from '../test/corpus/corpora.js';

const root = join(import.meta.dirname, '..');
const out = join(root, 'gpu-input');
rmSync(out, { recursive: true, force: true });
mkdirSync(join(out, 'clang'), { recursive: true });
const manifest: { name: string; file: string; options: string }[] = [];

function clangPtx(name: string, path: string, args: string[]): void {
  try {
    const ptx = execFileSync('clang-16', [...args, '-target', 'nvptx64-nvidia-nvcl', '-S', '-o', '-', path], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    writeFileSync(join(out, 'clang', `${name}.ptx`), ptx);
  } catch {
    // clang refuses it for NVPTX: the NVIDIA side still records what its compiler says.
  }
}

for (const f of fixtureFiles()) {
  const dest = join(out, 'fixtures', f.name);
  cpSync(join(root, 'test', 'fixtures', f.name), dest, { recursive: true });
  const opts = [`-cl-std=${f.std}`, ...f.includeDirs.map((d) => `-I${join('fixtures', f.name, relative(join(root, 'test', 'fixtures', f.name), d))}`), ...f.defines.map(([n, v]) => `-D${n}${v == null ? '' : '=' + v}`)];
  manifest.push({ name: `fixture:${f.name}`, file: join('fixtures', f.name, 'input.cl'), options: opts.join(' ') });
  clangPtx(`fixture:${f.name}`, f.path, [`-cl-std=${f.std}`, ...f.clangArgs]);
}

for (const corpus of CORPORA.filter((c) => c.name === 'darktable' || c.name === 'silx')) {
  const files = corpus.files();
  const dir = join(out, corpus.name);
  for (const file of files) {
    const srcDir = file.path.slice(0, file.path.length - file.name.length);
    cpSync(srcDir, dir, { recursive: true });
    // The host's -I points at its kernel folder: here the copy's.
    const opts = file.flags.map((x) => (x.startsWith('-I') && x.length > 2 ? `-I${corpus.name}` : x === srcDir.replace(/\/$/, '') ? corpus.name : x));
    manifest.push({ name: `${corpus.name}:${file.name}`, file: join(corpus.name, file.name), options: opts.join(' ') });
    clangPtx(`${corpus.name}:${file.name}`, file.path, [...file.flags]);
  }
}
writeFileSync(join(out, 'manifest.json'), JSON.stringify(manifest, null, 1));
console.log(`${manifest.length} sources in gpu-input/`);
