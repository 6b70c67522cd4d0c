// Every worked example of README.md and docs/*.md still runs and still prints what the document shows
// (```console blocks; scripts/accept-doc-examples.ts rewrites the outputs on purpose). The examples call
// the built bin, clang-22 and an OpenCL device: under CI=true a missing one fails the test.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { listDevices } from '../src/runtime/opencl/host.js';
import {
  documentsWithExamples,
  exampleBlocks,
  exampleFolder,
  normalize,
  readDoc,
  runExample,
} from './support/doc-examples.js';
import { CLANG22_AMDHSA, requireTool } from './support/tools.js';

/** The reference tools an example's command calls, by the word it starts with. */
const TOOLS: Readonly<Record<string, readonly string[]>> = { 'clang-22': CLANG22_AMDHSA };

const withExamples = documentsWithExamples()
  .map((doc) => ({ doc, blocks: exampleBlocks(doc, readDoc(doc)) }))
  .filter((d) => d.blocks.length);

test('the README has a worked example for each job: lower, diff, check, run, gen-ts', () => {
  const readme = withExamples.find((d) => d.doc === 'README.md');
  assert.ok(readme, 'README.md has console blocks');
  const commands = readme.blocks.flatMap((b) => b.commands.map((c) => c.command));
  for (const job of ['lower', 'diff', 'check', 'run', 'gen-ts']) {
    assert.ok(
      commands.some((c) => c.startsWith(`kernarg ${job} `)),
      `README runs kernarg ${job}`,
    );
  }
});

test('a changed output is seen: the comparison is not blind', () => {
  const [block] = exampleBlocks('x.md', '```console\n$ echo one\ntwo\n```\n');
  const folder = exampleFolder();
  try {
    const r = runExample(block!.commands[0]!.command, folder.dir, folder.env);
    assert.notEqual(normalize(r.output), normalize(block!.commands[0]!.output));
  } finally {
    folder.dispose();
  }
  assert.equal(normalize('"timeMs": 0.0123'), normalize('"timeMs": 4'));
  assert.notEqual(normalize('"timeMs": 1, "x": 1'), normalize('"timeMs": 1, "x": 2'));
});

for (const { doc, blocks } of withExamples) {
  test(`${doc}: every console example prints what the document shows`, (t) => {
    const commands = blocks.flatMap((b) => b.commands.map((c) => ({ ...c, line: b.line })));
    for (const c of commands) {
      const tool = TOOLS[c.command.split(' ')[0]!];
      if (tool && !requireTool(t, [...tool])) return;
    }
    if (commands.some((c) => c.command.startsWith('kernarg run '))) {
      let n = 0;
      try {
        n = listDevices().length;
      } catch (e) {
        if (process.env.CI === 'true') throw e;
      }
      if (!n) {
        if (process.env.CI === 'true') throw new Error('no OpenCL device: .ci/run installs pocl-opencl-icd');
        t.skip('no OpenCL device');
        return;
      }
    }
    // One folder for the document: a later block may read what an earlier one wrote (saxpy.o).
    const folder = exampleFolder();
    try {
      for (const c of commands) {
        const r = runExample(c.command, folder.dir, folder.env);
        assert.equal(r.status, 0, `${doc}:${c.line}: '${c.command}' exited ${r.status}:\n${r.output}`);
        assert.equal(
          normalize(r.output),
          normalize(c.output),
          `${doc}:${c.line}: '${c.command}' printed otherwise (node --import tsx scripts/accept-doc-examples.ts)`,
        );
      }
    } finally {
      folder.dispose();
    }
  });
}
