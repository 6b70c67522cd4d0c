// The worked examples of README.md and docs/*.md: every ```console block is a shell session, `$ ` lines
// the commands and the lines after each its output. test/doc-examples.test.ts runs them and compares;
// scripts/accept-doc-examples.ts writes the outputs back when a change is on purpose.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const ROOT = join(import.meta.dirname, '..', '..');

/** The documents whose console blocks are run: the front door and every topic under docs/. */
export function documentsWithExamples(): string[] {
  const docs = readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`);
  return ['README.md', ...docs];
}

export interface ExampleCommand {
  readonly command: string;
  readonly output: string;
}

export interface ExampleBlock {
  readonly doc: string;
  /** The 1-based line of the block's opening fence, for messages. */
  readonly line: number;
  readonly commands: readonly ExampleCommand[];
  /** Where the block's text starts and ends in the document (after the opening fence, at the closing one). */
  readonly start: number;
  readonly end: number;
}

const OPEN = '```console\n';

export function exampleBlocks(doc: string, text: string): ExampleBlock[] {
  const blocks: ExampleBlock[] = [];
  for (let at = text.indexOf(OPEN); at >= 0; at = text.indexOf(OPEN, at + 1)) {
    const start = at + OPEN.length;
    const end = text.indexOf('```', start);
    if (end < 0) throw new Error(`${doc}: a console block is not closed`);
    const commands: { command: string; output: string[] }[] = [];
    for (const l of text.slice(start, end).replace(/\n$/, '').split('\n')) {
      if (l.startsWith('$ ')) commands.push({ command: l.slice(2), output: [] });
      else if (commands.length) commands.at(-1)!.output.push(l);
      else if (l !== '') throw new Error(`${doc}: a console block starts with output, not a '$ ' command: ${l}`);
    }
    const line = text.slice(0, at).split('\n').length;
    blocks.push({
      doc,
      line,
      start,
      end,
      commands: commands.map((c) => ({ command: c.command, output: c.output.join('\n') })),
    });
  }
  return blocks;
}

/**
 * What varies from machine to machine and run to run, made one word: the device's name and the kernel's
 * time in `kernarg run`'s output. Everything else must be byte for byte what the document shows.
 */
export const normalize = (s: string) =>
  s.replace(/"device": "[^"\n]*"/g, '"device": "<device>"').replace(/"timeMs": [0-9.e+-]+/g, '"timeMs": <ms>');

/**
 * A folder to run one document's examples in, as from the repository's root: docs/ is linked in (the
 * examples read docs/examples/), files the commands write stay in the folder, and `kernarg` on the PATH is
 * this checkout's bin.
 */
export function exampleFolder(): { dir: string; env: NodeJS.ProcessEnv; dispose: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'kernarg-doc-examples-'));
  symlinkSync(join(ROOT, 'docs'), join(dir, 'docs'));
  mkdirSync(join(dir, '.bin'));
  writeFileSync(
    join(dir, '.bin', 'kernarg'),
    `#!/bin/sh\nexec "${process.execPath}" "${join(ROOT, 'bin', 'kernarg.js')}" "$@"\n`,
    { mode: 0o755 },
  );
  // The build cache and include trees of `kernarg run` stay in the folder too, so nothing outlives the test.
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PATH: `${join(dir, '.bin')}:${process.env.PATH}`,
    NO_COLOR: '1',
    KERNARG_CACHE_DIR: join(dir, '.cache'),
    KERNARG_INCLUDE_TREES: join(dir, '.trees'),
  };
  delete env.FORCE_COLOR;
  return { dir, env, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Runs one command as the document's reader would (bash, stderr with stdout); its output without the last newline. */
export function runExample(
  command: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
): { status: number | null; output: string } {
  const r = spawnSync('bash', ['-c', `${command} 2>&1`], { cwd, env, encoding: 'utf8', timeout: 120_000 });
  return { status: r.status, output: (r.stdout ?? '').replace(/\n$/, '') };
}

export const readDoc = (doc: string) => readFileSync(join(ROOT, doc), 'utf8');
