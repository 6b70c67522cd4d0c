import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Where scripts/fetch-corpus.sh unpacks the Debian packages (ignored by git). */
export const CORPUS_ROOT = join(import.meta.dirname, '..', '..', '.corpus', 'root');

/** One program as its host builds it: the file, and the build options the host passes (clang's spelling). */
export interface CorpusFile {
  readonly path: string;
  readonly name: string;
  readonly flags: readonly string[];
}

export interface Corpus {
  readonly name: string;
  /** The Debian package it comes from (scripts/fetch-corpus.sh lists it). */
  readonly pkg: string;
  readonly files: () => CorpusFile[];
}

function clFiles(dir: string, keep: (name: string) => boolean = () => true): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir).sort()) {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) out.push(...clFiles(p, keep));
    else if (e.endsWith('.cl') && keep(e)) out.push(p);
  }
  return out;
}

/** hashcat 6.2.6's build options (src/backend.c) for one kernel file, on a generic OpenCL GPU with vector width 1. */
function hashcatFlags(dir: string, file: string): string[] {
  const m = /^m(\d{5})(?:_a(\d))?-/.exec(file)!;
  const has = [
    'ADD',
    'ADDC',
    'SUB',
    'SUBC',
    'VADD',
    'VADDC',
    'VADD_CO',
    'VADDC_CO',
    'VSUB',
    'VSUBB',
    'VSUB_CO',
    'VSUBB_CO',
    'VPERM',
    'VADD3',
    'VBFE',
    'BFE',
    'LOP3',
    'MOV64',
    'PRMT',
  ];
  return [
    '-D',
    'KERNEL_STATIC',
    '-I',
    dir,
    '-D',
    `INCLUDE_PATH=${dir}`,
    '-D',
    'XM2S(x)=#x',
    '-D',
    'M2S(x)=XM2S(x)',
    '-D',
    'LOCAL_MEM_TYPE=1',
    '-D',
    'VENDOR_ID=8',
    '-D',
    'CUDA_ARCH=0',
    ...has.flatMap((h) => ['-D', `HAS_${h}=0`]),
    '-D',
    'VECT_SIZE=1',
    '-D',
    'DEVICE_TYPE=4',
    '-D',
    'DGST_R0=0',
    '-D',
    'DGST_R1=3',
    '-D',
    'DGST_R2=2',
    '-D',
    'DGST_R3=1',
    '-D',
    'DGST_ELEM=4',
    '-D',
    `KERN_TYPE=${Number(m[1])}`,
    '-D',
    `ATTACK_EXEC=${m[2] === undefined ? 10 : 11}`,
    '-D',
    `ATTACK_KERN=${m[2] ?? 0}`,
    '-D',
    `ATTACK_MODE=${m[2] ?? 0}`,
    '-w',
  ];
}

/**
 * The real-world corpora: OpenCL C that ships in Debian packages, built with the options its host
 * passes. A file clang-16 refuses with those options is skipped and counted by the test.
 */
export const CORPORA: readonly Corpus[] = [
  {
    // darktable 4.2's src/common/opencl.c: "-w <-cl-fast-relaxed-math> -D<VENDOR>=1 -I<kerneldir>".
    name: 'darktable',
    pkg: 'darktable',
    files: () => {
      const dir = join(CORPUS_ROOT, 'usr/share/darktable/kernels');
      return clFiles(dir).map((path) => ({
        path,
        name: relative(dir, path),
        flags: ['-w', '-cl-fast-relaxed-math', '-DAMD=1', `-I${dir}`],
      }));
    },
  },
  {
    // hashcat 6.2.6 with hashcat's build options: the "pure" kernels of hash modes 0-99 in every attack
    // mode (straight, combinator, brute force: three argument lists) and the slow hashes 400 and 500
    // (loop kernels with tmps structs). Every kernel file includes the same inc_* library, so each
    // costs kernarg about half a second per target: the rest of the 1,239 files add time, not shapes.
    name: 'hashcat',
    pkg: 'hashcat-data',
    files: () => {
      const dir = join(CORPUS_ROOT, 'usr/share/hashcat/OpenCL');
      return clFiles(dir, (f) => /^m000\d{2}(_a\d)?-pure\.cl$|^m00[45]00-pure\.cl$/.test(f)).map((path) => {
        const name = relative(dir, path);
        return { path, name, flags: hashcatFlags(dir, name) };
      });
    },
  },
  {
    // silx 1.1's OpenclProcessing builds each resource file on its own, with its folder on the include path.
    name: 'silx',
    pkg: 'python3-silx',
    files: () => {
      const dir = join(CORPUS_ROOT, 'usr/lib/python3/dist-packages/silx/resources/opencl');
      return clFiles(dir).map((path) => ({ path, name: relative(dir, path), flags: ['-I', dir] }));
    },
  },
];
