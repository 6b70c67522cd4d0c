// The cached zebin oracle set: which sources, with which flags, for which devices. Their ocloc
// records live in test/oracle/zebin-ocloc/records (scripts/zebin-record.ts writes them).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CORPUS_ROOT } from '../corpus/corpora.js';
import { fixtureFiles } from './fixtures.js';

export const ZEBIN_DIR = join(import.meta.dirname, '..', 'oracle', 'zebin-ocloc');
export const ZEBIN_RECORDS = join(ZEBIN_DIR, 'records');

export interface ZebinCase {
  readonly name: string;
  readonly devices: readonly string[];
  /** A file of this folder, a fixture (`fixture:<case>`) or a corpus file (`corpus:<path under .corpus/root>`). */
  readonly source: string;
  /** clang-style flags (-D, -I, -w, -cl-fast-relaxed-math) given to both. */
  readonly flags?: readonly string[];
}

const DARKTABLE = 'usr/share/darktable/kernels';
const SILX = 'usr/lib/python3/dist-packages/silx/resources/opencl';

/** Every case; the corpus ones need scripts/fetch-corpus.sh. */
export const ZEBIN_CASES: readonly ZebinCase[] = [
  { name: 'hand-builtins', devices: ['pvc', 'tgllp', 'dg2'], source: 'hand-builtins.cl' },
  { name: 'hand-images', devices: ['pvc', 'tgllp'], source: 'hand-images.cl' },
  { name: 'hand-values', devices: ['pvc'], source: 'hand-values.cl' },
  { name: 'hand-narrow', devices: ['pvc', 'dg2'], source: 'hand-narrow.cl' },
  { name: 'hand-pointers', devices: ['pvc', 'tgllp', 'dg2'], source: 'hand-pointers.cl' },
  { name: 'generated-0', devices: ['pvc'], source: 'generated-0.cl' },
  { name: 'generated-1', devices: ['pvc'], source: 'generated-1.cl' },
  { name: 'generated-2', devices: ['pvc'], source: 'generated-2.cl' },
  ...[
    'cl20-types',
    'clspv-image-metadata',
    'clspv-physical-pointers',
    'clspv-printf',
    'decl-constants',
    'decl-kernels',
    'decl-structs',
    'pp-include',
    'pp-macros',
    'clspv-constants-pointer',
    'clspv-native-math',
    'clspv-pod-ubo-each',
    'clspv-subgroup-max-size',
    'clspv-texel-buffers',
    'clspv-half-pointers',
    'clspv-workgroup-variable-size',
  ].map((f) => ({ name: `fixture-${f}`, devices: ['pvc'], source: `fixture:${f}` })),
  ...['basic.cl', 'demosaic_ppg.cl', 'bilateral.cl'].map((f) => ({
    name: `darktable-${f.replace('.cl', '')}`,
    devices: ['pvc'],
    source: `corpus:${DARKTABLE}/${f}`,
    flags: ['-w', '-cl-fast-relaxed-math', '-DAMD=1', `-I${join(CORPUS_ROOT, DARKTABLE)}`],
  })),
  ...['addition.cl', 'linalg.cl', 'bitonic.cl'].map((f) => ({
    name: `silx-${f.replace(/\//g, '-').replace('.cl', '')}`,
    devices: ['pvc'],
    source: `corpus:${SILX}/${f}`,
    flags: ['-I', join(CORPUS_ROOT, SILX)],
  })),
];

/** The text to compile, the file's path where it has one (its includes), and the flags. */
export function caseSource(c: ZebinCase): { text: string; path?: string; flags: readonly string[] } {
  if (c.source.startsWith('fixture:')) {
    const f = fixtureFiles().find((x) => x.name === c.source.slice('fixture:'.length));
    if (!f) throw new Error(`no fixture ${c.source}`);
    return {
      text: f.text,
      path: f.path,
      flags: [
        ...f.includeDirs.map((d) => `-I${d}`),
        ...f.defines.map(([n, v]) => `-D${n}${v === undefined || v === null ? '' : '=' + v}`),
      ],
    };
  }
  if (c.source.startsWith('corpus:')) {
    const path = join(CORPUS_ROOT, c.source.slice('corpus:'.length));
    if (!existsSync(path)) throw new Error(`the corpus is missing ${path}: run scripts/fetch-corpus.sh`);
    return { text: readFileSync(path, 'utf8'), path, flags: c.flags ?? [] };
  }
  const path = join(ZEBIN_DIR, c.source);
  return { text: readFileSync(path, 'utf8'), path, flags: c.flags ?? [] };
}

export const recordPath = (name: string, device: string): string =>
  join(ZEBIN_RECORDS, `${name}.${device}.ze_info.yaml`);
