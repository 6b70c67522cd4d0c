// Writes the real output of every worked example (```console blocks of README.md and docs/*.md) back into
// its document: run it after a change that alters an example's output on purpose, then read the diff.
// test/doc-examples.test.ts fails until the documents show what the commands print.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ROOT,
  documentsWithExamples,
  exampleBlocks,
  exampleFolder,
  readDoc,
  runExample,
} from '../test/support/doc-examples.js';

for (const doc of documentsWithExamples()) {
  const text = readDoc(doc);
  const blocks = exampleBlocks(doc, text);
  if (!blocks.length) continue;
  const folder = exampleFolder();
  try {
    let out = '';
    let from = 0;
    for (const b of blocks) {
      const lines: string[] = [];
      for (const c of b.commands) {
        const r = runExample(c.command, folder.dir, folder.env);
        if (r.status !== 0) throw new Error(`${doc}:${b.line}: '${c.command}' exited ${r.status}:\n${r.output}`);
        lines.push(`$ ${c.command}`, ...(r.output ? [r.output] : []));
      }
      out += text.slice(from, b.start) + lines.join('\n') + '\n';
      from = b.end;
    }
    writeFileSync(join(ROOT, doc), out + text.slice(from));
    console.log(`${doc}: ${blocks.length} example blocks`);
  } finally {
    folder.dispose();
  }
}
