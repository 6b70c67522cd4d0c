// Each command's `--help` (from the installed bin), docs/cli.md's part for it, and the "did you mean"
// of every kind of name the command line takes.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { COMMANDS, COMMAND_NAMES } from '../src/cli/commands.js';
import { runCliWith } from '../src/cli/main.js';
import { runCliOnFiles } from './support/cli-in-memory.js';
import { readInput } from '../src/cli/read-input.js';
import { TARGET_RECORDS } from '../src/targets/index.js';
import { closestName, editDistance } from '../src/text/closest-name.js';
import { CLI_DOC, OPTIONS_DOC, commandMarkers, readText, cliDocWithCommandHelp } from '../scripts/generated-docs.js';

const BIN = join(import.meta.dirname, '..', 'bin', 'kernarg.js');
const kernarg = (argv: string[]) => spawnSync(process.execPath, [BIN, ...argv], { encoding: 'utf8' });

const run = (argv: string[], files: Record<string, string> = {}) => runCliOnFiles(argv, files);

/** A help text's option lines as [flag, meaning] (flag column, then two or more spaces). */
function helpRows(text: string): Map<string, string> {
  const rows = new Map<string, string>();
  for (const line of text.split('\n')) {
    const m = /^ {2}\s*(-\S.*?) {2,}(\S.*)$/.exec(line);
    if (m) rows.set(m[1], m[2]);
  }
  return rows;
}

/** docs/cli.md's part for a command: its synopses and its option rows as [flag, meaning]. */
function cliDocPart(doc: string, name: string): { usage: string[]; rows: Map<string, string> } {
  const [open, close] = commandMarkers(name);
  const part = doc.slice(doc.indexOf(open), doc.indexOf(close));
  assert.ok(part.length > open.length, `${CLI_DOC} has a part for ${name}`);
  const usage = /```\n([\s\S]*?)```/.exec(part)![1].trimEnd().split('\n');
  const rows = new Map<string, string>();
  const cell = (s: string) => s.replaceAll('\\|', '|');
  for (const m of part.matchAll(/^\| `(.+?)` \| (.+) \|$/gm)) rows.set(cell(m[1]), cell(m[2]));
  return { usage, rows };
}

test("docs/cli.md and each command's --help say the same: synopses and every option with its meaning", () => {
  const cliDoc = readText(CLI_DOC);
  assert.equal(cliDoc, cliDocWithCommandHelp(cliDoc), `${CLI_DOC} is stale: run npm run docs`);
  const optionsDoc = readText(OPTIONS_DOC);
  // The bin's own path for `lower --help` (the whole CLI, not the lower-only bundle) gives the same text.
  assert.equal(kernarg(['lower', '--help']).stdout, run(['lower', '--help']).stdout);
  for (const name of COMMAND_NAMES) {
    const r = run([name, '--help']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, '');
    const help = r.stdout;
    const { usage, rows } = cliDocPart(cliDoc, name);
    const helpUsage = help
      .split('\n\n')[0]
      .split('\n')
      .map((l) => l.replace(/^(Usage:| {6}) /, ''));
    assert.deepEqual(helpUsage, usage, `${name}: synopses`);
    // The sections docs/cli.md shows in the command's own table; lower's target options are the target table.
    const own = COMMANDS[name].sections.filter((s) => !('readmeElsewhere' in s));
    const helpOwn = new Map(
      [...helpRows(help)].filter(([flag]) =>
        own.some((s) => s.options.some((o) => flag.endsWith(o.name) || flag.includes(`${o.name} `))),
      ),
    );
    assert.deepEqual([...rows].sort(), [...helpOwn].sort(), `${name}: options`);
    assert.ok(rows.size > 0);
  }
  // lower's target options: each target's row of docs/options.md's table is in the help line of that flag.
  const lowerHelp = helpRows(run(['lower', '--help']).stdout);
  for (const t of TARGET_RECORDS) {
    for (const f of t.flags) {
      const line = [...lowerHelp].find(
        ([flag]) => flag === `--${f.flag}` || flag.startsWith(`--${f.flag} `) || flag.startsWith(`-${f.flag}`),
      );
      assert.ok(line, `lower --help lists --${f.flag}`);
      assert.ok(line[1].includes(f.help) && line[1].includes(t.name), `--${f.flag}: ${line[1]}`);
      assert.ok(optionsDoc.includes(`| \`${t.name}\` | \`--${f.flag}`), `${OPTIONS_DOC} lists ${t.name} --${f.flag}`);
    }
  }
});

test("each command's --help lists its own options only; kernarg --help lists the commands", () => {
  const run1 = run(['run', '--help']).stdout;
  const lower1 = run(['lower', '--help']).stdout;
  assert.match(run1, /--kernel <name>/);
  assert.doesNotMatch(run1, /--target|--pod-ubo|--output-dir/);
  assert.match(lower1, /--output-dir <dir>/);
  assert.match(lower1, /--pod-ubo/);
  assert.doesNotMatch(lower1, /--kernel <|--howmany|--old-opt/);
  assert.doesNotMatch(run(['devices', '--help']).stdout, /--kernel <|--target/);
  assert.match(run(['devices', '--help']).stdout, /--api opencl\|vulkan\|all/);
  assert.equal(run(['help', 'diff']).stdout, run(['diff', '--help']).stdout);
  assert.equal(run(['diff', '-h']).stdout, run(['diff', '--help']).stdout);
  const main = run(['--help']);
  assert.equal(main.code, 0);
  for (const name of COMMAND_NAMES) assert.match(main.stdout, new RegExp(`^  ${name} +\\S`, 'm'));
  assert.doesNotMatch(main.stdout, /--pod-ubo|element types|--output-dir <dir> {2}/);
  // `lower … --help` through the bin takes the whole CLI's path, not the lower-only bundle's.
  assert.equal(kernarg(['lower', 'x.cl', '--target', 'opencl', '--help']).stdout, lower1);
  assert.equal(kernarg(['lower', '-h']).stdout, lower1);
});

test('"did you mean" for commands, options, targets, formats, choices and kernel names; usage errors exit 2', () => {
  const K = 'kernel void scale(global float *a) {}\nkernel void shift(global float *a) {}\n';
  const usage = (argv: string[], message: RegExp) => {
    const r = run(argv, { 'k.cl': K, 'a.json': '{}' });
    assert.equal(r.code, 2, `${argv.join(' ')}: ${r.stderr}`);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, message);
  };
  usage(['lowr', 'k.cl'], /unknown command 'lowr' .*; did you mean 'lower'\?/);
  usage(['devcies'], /did you mean 'devices'\?/);
  usage(
    ['lower', 'k.cl', '--taget', 'opencl'],
    /unknown option '--taget'; did you mean '--target'\?\nRun 'kernarg lower --help' for usage\.\n$/,
  );
  usage(
    ['lower', 'k.cl', '--target', 'opencl', '--fromat', 'json'],
    /unknown option '--fromat'; did you mean '--format'\?/,
  );
  usage(['lower', 'k.cl', '--target', 'vulkan', '-pod-ubbo'], /unknown option '-pod-ubbo'; did you mean '--pod-ubo'\?/);
  usage(['lower', 'k.cl', '--target', 'vulkn'], /unknown target 'vulkn' .*; did you mean 'vulkan'\?/);
  usage(
    ['lower', 'k.cl', '--target', 'opencl', '--format', 'sigantures'],
    /format 'sigantures' is not available .*; did you mean 'signatures'\?/,
  );
  usage(
    ['lower', 'k.cl', '--target', 'amdhsa', '--format', 'clrx'],
    /format 'clrx' is not available for target 'amdhsa'/,
  );
  usage(
    ['lower', 'k.cl', '--target', 'llvm', '--metadata', 'legasy'],
    /--metadata takes modern, legacy, not 'legasy'; did you mean 'legacy'\?/,
  );
  usage(
    ['lower', 'k.cl', '--target', 'opencl', '--cl-std', 'CL2.1'],
    /unknown OpenCL C version 'CL2\.1'.*did you mean/,
  );
  usage(
    ['diff', 'k.cl', 'k.cl', '--target', 'opencl', '--old-tagret', 'x'],
    /unknown option '--old-tagret'; did you mean '--old-target'\?/,
  );
  usage(
    ['diff', 'k.cl', 'k.cl', '--target', 'opencl', '--format', 'jsno'],
    /--format takes table or json, not 'jsno'; did you mean 'json'\?/,
  );
  usage(
    ['run', 'k.cl', '--kernel', 'scale', '--args', 'a.json', '--global', '1', '--api', 'vulkn'],
    /--api takes opencl, vulkan, cuda, not 'vulkn'; did you mean 'vulkan'\?\nRun 'kernarg run --help'/,
  );
  usage(['devices', '--api', 'opnecl'], /--api takes all, opencl, vulkan, not 'opnecl'; did you mean 'opencl'\?/);
  // Nothing near: no suggestion.
  usage(
    ['frobnicate'],
    /unknown command 'frobnicate' \(commands: lower, diff, check, run, gen-ts, devices, replay\)\n/,
  );
  usage(['lower', 'k.cl', '--target', 'opencl', '--zzzzzz'], /unknown option '--zzzzzz'\n/);
});

test('edit distance: a swap is one edit; a suggestion is within a third of the name, never the name itself', () => {
  assert.equal(editDistance('fromat', 'format'), 1);
  assert.equal(editDistance('lowr', 'lower'), 1);
  assert.equal(editDistance('', 'abc'), 3);
  assert.equal(closestName('OPENCL', ['vulkan', 'opencl']), 'opencl');
  assert.equal(closestName('x', ['y', 'z']), 'y');
  assert.equal(closestName('abcdef', ['uvwxyz']), undefined);
  // Against the textbook definition (optimal string alignment), computed without the early stop.
  const osa = (a: string, b: string): number => {
    const d = Array.from({ length: a.length + 1 }, (_, i) =>
      Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
    );
    for (let i = 1; i <= a.length; i++) {
      for (let j = 1; j <= b.length; j++) {
        d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
        if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
          d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
    return d[a.length][b.length];
  };
  const word = fc.string({ unit: fc.constantFrom('a', 'b', 'c', '-'), maxLength: 9 });
  fc.assert(
    fc.property(word, word, fc.nat(5), (a, b, limit) => {
      const exact = osa(a, b);
      assert.equal(editDistance(a, b), exact);
      assert.equal(editDistance(a, b, limit), exact <= limit ? exact : limit + 1);
    }),
    { numRuns: 500 },
  );
});

test('-o and --output-dir make missing folders; an output that cannot be written is file: error: … [KA6002], exit 1', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kernarg-out-'));
  try {
    const src = join(dir, 'k.cl');
    writeFileSync(src, 'kernel void k(global int *a) {}\n');
    const one = kernarg([
      'lower',
      src,
      '--target',
      'opencl',
      '--format',
      'json',
      '-o',
      join(dir, 'new', 'deeper', 'k.json'),
    ]);
    assert.equal(one.status, 0, one.stderr);
    assert.equal(JSON.parse(readFileSync(join(dir, 'new', 'deeper', 'k.json'), 'utf8')).kernels[0].name, 'k');
    const batch = kernarg(['lower', src, '--target', 'opencl', '--output-dir', join(dir, 'out', 'sub')]);
    assert.equal(batch.status, 0, batch.stderr);
    assert.match(readFileSync(join(dir, 'out', 'sub', 'k.txt'), 'utf8'), /k/);
    // A folder that cannot be made: a file stands where it would go.
    const blocked = join(dir, 'k.cl', 'k.json');
    const bad = kernarg(['lower', src, '--target', 'opencl', '-o', blocked]);
    assert.equal(bad.status, 1);
    assert.equal(
      bad.stderr,
      `${blocked}: error: cannot write the output: a file of that name is in the way [KA6002]\n`,
    );
    // Missing inputs, read through the real file system's reader (the reason in words).
    const onDisk = (argv: string[]) => {
      let stderr = '';
      const code = runCliWith(argv, {
        stdout: () => {},
        stderr: (t) => (stderr += t),
        readFile: () => undefined,
        readInput,
        color: false,
      });
      return { code, stderr };
    };
    const missing = onDisk(['run', join(dir, 'nope.cl'), '--kernel', 'k', '--args', 'a.json', '--global', '1']);
    assert.equal(missing.code, 1);
    assert.equal(
      missing.stderr,
      `${join(dir, 'nope.cl')}: error: cannot read the input file: no such file or directory [KA6001]\n`,
    );
    const noArgs = onDisk(['run', src, '--kernel', 'k', '--args', dir, '--global', '1']);
    assert.equal(noArgs.stderr, `${dir}: error: cannot read the arguments file: is a directory [KA6001]\n`);
    const genTs = onDisk(['gen-ts', join(dir, 'nope.cl')]);
    assert.equal(genTs.code, 1);
    assert.equal(
      genTs.stderr,
      `${join(dir, 'nope.cl')}: error: cannot read the input file: no such file or directory [KA6001]\n`,
    );
    // A sampler map: unreadable as a whole, or refused at the line of its bad entry with a code frame.
    const noMap = onDisk(['lower', src, '--target', 'vulkan', '--samplermap', join(dir, 'none.map')]);
    assert.equal(noMap.code, 1);
    assert.equal(
      noMap.stderr,
      `${join(dir, 'none.map')}: error: cannot read the sampler map: no such file or directory [KA6001]\n`,
    );
    writeFileSync(join(dir, 'bad.map'), 'CLK_ADDRESS_CLAMP|CLK_FILTER_NEAREST,\nCLK_BOGUS\n');
    const badMap = onDisk(['lower', src, '--target', 'vulkan', '--samplermap', join(dir, 'bad.map')]);
    assert.equal(badMap.code, 1);
    assert.match(
      badMap.stderr,
      new RegExp(
        `^${join(dir, 'bad.map')}:2:1: error: .*CLK_BOGUS.* \\[KA6003\\]\n 2 \\| CLK_BOGUS\n   \\| \\^~{8}\n1 error ` +
          `generated\\.\n$`,
      ),
    );
    const replay = onDisk(['replay', join(dir, 'nope.json')]);
    assert.equal(
      replay.stderr,
      `${join(dir, 'nope.json')}: error: cannot read the capture file: no such file or directory [KA6001]\n`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
