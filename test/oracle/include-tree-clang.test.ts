// The include tree against clang-16: on generated folder layouts (same-named headers beside the
// including file and in several -I folders, nested includes, -D/-U in order), the headers kernarg
// records are the ones `clang -M` says clang reads from the real files, and clang preprocessing the
// driver's input (the source on stdin, the tree, the driver's options) gives what it gives for the
// real files.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { type BuildFlag, portableBuild } from '../../src/build-input/build-input.js';
import { lowerForDriver } from '../../src/driver-build/lower-build.js';
import { includeTree } from '../../src/runtime/opencl/include-tree.js';
import { CLANG, requireTool } from '../support/tools.js';

const FOLDERS = ['src/k', 'src/k/sub', 'inc1', 'inc2'] as const;
const NAMES = ['a.h', 'b.h', 'c.h'] as const;

interface Layout {
  /** Which folders hold a header of each name; each header may include another name. */
  readonly files: {
    folder: (typeof FOLDERS)[number];
    name: (typeof NAMES)[number];
    includes?: (typeof NAMES)[number];
    once: boolean;
  }[];
  readonly mainIncludes: (typeof NAMES)[number][];
  readonly includeDirs: (typeof FOLDERS)[number][];
  readonly macros: ({ define: string; value: string } | { undefine: string })[];
  readonly relative: boolean;
}

const layout: fc.Arbitrary<Layout> = fc
  .record({
    files: fc.uniqueArray(
      fc.record({
        folder: fc.constantFrom(...FOLDERS),
        name: fc.constantFrom(...NAMES),
        includes: fc.option(fc.constantFrom(...NAMES), { nil: undefined }),
        once: fc.boolean(),
      }),
      { minLength: 1, maxLength: 8, selector: (f) => `${f.folder}/${f.name}` },
    ),
    mainIncludes: fc.array(fc.constantFrom(...NAMES), { minLength: 1, maxLength: 3 }),
    includeDirs: fc.uniqueArray(fc.constantFrom(...FOLDERS), { maxLength: 3 }),
    macros: fc.array(
      fc.oneof(
        fc.record({ define: fc.constantFrom('M', 'N'), value: fc.constantFrom('1', '2') }),
        fc.record({ undefine: fc.constantFrom('M', 'N') }),
      ),
      { maxLength: 3 },
    ),
    relative: fc.boolean(),
  })
  .filter((l) => l.mainIncludes.every((n) => l.files.some((f) => f.name === n))); // most layouts then build; some still miss a header

function write(root: string, l: Layout): void {
  for (const f of l.files) {
    const guard = `G_${f.folder.replace(/\W/g, '_')}_${f.name.replace('.', '_')}`;
    const tag = guard.slice(2).toLowerCase();
    const body = `typedef int from_${tag};\n${f.includes ? `#include "${f.includes}"\n` : ''}`;
    mkdirSync(join(root, f.folder), { recursive: true });
    writeFileSync(
      join(root, f.folder, f.name),
      f.once ? `#pragma once\n${body}` : `#ifndef ${guard}\n#define ${guard}\n${body}#endif\n`,
    );
  }
  mkdirSync(join(root, 'src/k'), { recursive: true });
  const main = [
    ...l.mainIncludes.map((n) => `#include "${n}"`),
    '#ifdef M',
    'typedef int m_is_defined;',
    '#endif',
    '#if N == 2',
    'typedef int n_is_2;',
    '#endif',
    'kernel void k(global int *a) { a[0] = 1; }',
    '',
  ];
  writeFileSync(join(root, 'src/k/main.cl'), main.join('\n'));
}

/** clang's output without blank lines (-P leaves runs of them where directives were). */
const text = (s: string) =>
  s
    .split('\n')
    .filter((x) => x.trim())
    .join('\n');

test('include tree: kernarg reads the headers clang reads, and clang on the tree preprocesses as on the real files (generated layouts)', (t) => {
  const clang = requireTool(t, CLANG);
  if (!clang) return;
  const base = mkdtempSync(join(tmpdir(), 'kernarg-include-oracle-'));
  const saved = process.env.KERNARG_INCLUDE_TREES;
  process.env.KERNARG_INCLUDE_TREES = join(base, 'trees');
  let compared = 0;
  let run = 0;
  try {
    fc.assert(
      fc.property(layout, (l) => {
        const root = join(base, `case${run++}`);
        write(root, l);
        const at = (p: string) => (l.relative ? p : join(root, p));
        const flags: BuildFlag[] = [
          { kind: 'std', std: 'CL1.2' },
          ...l.includeDirs.map((d): BuildFlag => ({ kind: 'include', dir: at(d) })),
        ];
        for (const m of l.macros)
          flags.push(
            'define' in m ? { kind: 'define', name: m.define, value: m.value } : { kind: 'undefine', name: m.undefine },
          );
        const mainPath = at('src/k/main.cl');
        const cwd = l.relative ? root : '/';
        const host = {
          readFile: (p: string) => {
            try {
              return readFileSync(join(cwd, p), 'utf8');
            } catch {
              return undefined;
            }
          },
        };
        const { result, input } = lowerForDriver(
          mainPath,
          readFileSync(join(root, 'src/k/main.cl'), 'utf8'),
          host,
          flags,
        );
        const clangFlags = [
          ...l.includeDirs.flatMap((d) => ['-I', at(d)]),
          ...l.macros.flatMap((m) => ('define' in m ? ['-D', `${m.define}=${m.value}`] : ['-U', m.undefine])),
        ];
        const real = ['-x', 'cl', '-cl-std=CL1.2', ...clangFlags, mainPath];
        let deps: string;
        try {
          deps = execFileSync(clang, ['-M', ...real], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
        } catch {
          // A header found nowhere: clang fails, and so does kernarg, with the name.
          assert.ok(!result.plan, `clang failed and kernarg did not:\n${JSON.stringify(l)}`);
          assert.ok(
            result.diagnostics.some((d) => d.code === 'KA1041'),
            JSON.stringify(result.diagnostics),
          );
          return;
        }
        assert.ok(
          result.plan,
          `kernarg failed where clang did not: ${JSON.stringify(result.diagnostics)}\n${JSON.stringify(l)}`,
        );
        // clang -M: "main.o: <main> <header> ..." with continuation lines; only the layout's own files.
        const read = deps
          .replace(/\\\n/g, ' ')
          .split(/\s+/)
          .slice(2)
          .filter(
            (p) => p && p.startsWith(l.relative ? '' : root) && !p.includes('/lib/clang/') && !p.includes('/llvm-'),
          );
        const norm = (p: string) => join(cwd, p);
        assert.deepEqual(
          Object.keys(input.headers).map(norm).sort(),
          [...new Set(read.map(norm))].sort(),
          `headers read\n${JSON.stringify(l)}`,
        );
        // The driver's view: the source on stdin (no folder of its own), the tree, the driver's options.
        const portable = portableBuild(input, cwd).input;
        const tree = includeTree(portable);
        const treeArgs = tree.options.split(' ').filter((w) => !w.startsWith('-cl-std'));
        const fromTree = execFileSync(clang, ['-E', '-P', '-x', 'cl', '-cl-std=CL1.2', ...treeArgs, '-'], {
          cwd: '/',
          input: tree.source,
          encoding: 'utf8',
          stdio: ['pipe', 'pipe', 'pipe'],
        });
        const fromReal = execFileSync(clang, ['-E', '-P', ...real], {
          cwd,
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        assert.equal(text(fromTree), text(fromReal), `preprocessed\n${JSON.stringify(l)}\noptions: ${tree.options}`);
        compared++;
      }),
      { numRuns: 25, seed: 2026 },
    );
  } finally {
    if (saved === undefined) delete process.env.KERNARG_INCLUDE_TREES;
    else process.env.KERNARG_INCLUDE_TREES = saved;
    rmSync(base, { recursive: true, force: true });
  }
  t.diagnostic(
    `${compared} of ${run} generated layouts preprocessed by clang-16 on the tree and on the real files, the same; the rest not found by both`,
  );
  assert.ok(compared >= 10, `${compared} layouts compared`);
});
