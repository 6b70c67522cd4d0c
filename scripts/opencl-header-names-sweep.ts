// Which names clang's OpenCL C headers define (macros, typedefs, enum constants) kernarg's tinytc
// code generator may still emit: every name the headers spell that src/frontend/tinytc/reserved-names.ts does
// not reserve is compiled by clang-16 as a kernel name, a parameter name and a variable name, for
// OpenCL C 1.2 and 2.0, in one file per role. Any clang error is a name the generated code could
// break on (it must be reserved). The headers are read from clang-16's resource directory.
// Run: npx tsx scripts/opencl-header-names-sweep.ts
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUILTIN_PREFIX, isReservedCName } from '../src/frontend/tinytc/reserved-names.js';

const clang = 'clang-16';
const resource = execFileSync(clang, ['-print-resource-dir'], { encoding: 'utf8' }).trim();
const headers = ['opencl-c-base.h', 'opencl-c.h'].map((h) => readFileSync(join(resource, 'include', h), 'utf8'));
const spelled = new Set(headers.flatMap((h) => h.match(/\b[A-Za-z][A-Za-z0-9_]*\b/g) ?? []));
for (const extra of ['queue_t', 'ndrange_t', 'clk_event_t', 'reserve_id_t', 'image2d_array_depth_t', 'main', 'printf'])
  spelled.add(extra);
const free = [...spelled].filter((n) => !isReservedCName(n) && !BUILTIN_PREFIX.test(n)).sort();
const reserved = spelled.size - free.length;

const dir = mkdtempSync(join(tmpdir(), 'kernarg-header-names-'));
/**
 * Each role's file: one line per name (a kernel per line; a parameter per line; a variable per line), so clang's line
 * numbers name the culprit.
 */
const roles: Record<string, { head: string; line: (n: string, i: number) => string; tail: string }> = {
  kernel: { head: '', line: (n) => `kernel void ${n}(global int *a) {}`, tail: '' },
  parameter: { head: 'kernel void k(int first', line: (n) => `, int ${n}`, tail: ') {}' },
  variable: {
    head: 'kernel void k(global int *out) {',
    line: (n, i) => `  int ${n} = ${i}; out[${i}] = ${n};`,
    tail: '}',
  },
};
const culprits = new Set<string>();
try {
  for (const [role, r] of Object.entries(roles)) {
    for (const std of ['CL1.2', 'CL2.0']) {
      // `out`, `a`, `k` and `first` are the files' own names, not candidates.
      const names = free.filter((n) => !['out', 'a', 'k', 'first'].includes(n));
      const file = join(dir, `${role}.cl`);
      writeFileSync(file, [r.head, ...names.map(r.line), r.tail].join('\n') + '\n');
      const out = spawnSync(clang, [`-cl-std=${std}`, '-target', 'spir64', '-fsyntax-only', '-ferror-limit=0', file], {
        encoding: 'utf8',
      });
      const bad = new Set(
        [...out.stderr.matchAll(/\.cl:(\d+):\d+: error/g)]
          .map((m) => names[Number(m[1]) - 2])
          .filter((n) => n !== undefined),
      );
      for (const n of bad) culprits.add(n);
      console.log(
        `${role} names, ${std}: ${names.length} ` +
          `names, ${out.status === 0 ? 'clang accepts them all' : `clang refuses ${[...bad].join(' ') || out.stderr.slice(0, 400)}`}`,
      );
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const failures = culprits.size;
console.log(
  `${spelled.size} names spelled in clang-16's OpenCL C headers: ${reserved} reserved by kernarg, ${free.length} ` +
    `not; ${failures} of those break clang${failures ? `: ${[...culprits].join(' ')}` : ''}`,
);
process.exitCode = failures ? 1 : 0;
