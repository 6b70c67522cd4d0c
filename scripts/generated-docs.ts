// The parts of the documentation made from the code: docs/options.md's target option table (from the
// target records), docs/cli.md's part for each command (from the command records) and docs/diagnostics.md
// (from the message catalogue). `npm run docs` writes them; test/docs.test.ts and test/cli-help.test.ts fail
// when they are stale.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { COMMAND_NAMES, commandReadme } from '../src/cli/commands.js';
import { targetOptionTable } from '../src/cli/target-flags.js';
import { Messages } from '../src/diagnostics/messages.js';

/** The documents holding generated parts (the README itself holds none: it is the front door). */
export const OPTIONS_DOC = 'docs/options.md';
export const CLI_DOC = 'docs/cli.md';
export const DIAGNOSTICS_DOC = 'docs/diagnostics.md';

export const OPTION_TABLE_BEGIN = '<!-- target options: generated from src/targets/*/index.ts by `npm run docs` -->';
export const OPTION_TABLE_END = '<!-- end of target options -->';

/** docs/options.md with its target option table made anew. */
export function optionsDocWithTable(doc: string): string {
  const begin = doc.indexOf(OPTION_TABLE_BEGIN);
  const end = doc.indexOf(OPTION_TABLE_END);
  if (begin < 0 || end < begin)
    throw new Error(`${OPTIONS_DOC} lacks the markers ${OPTION_TABLE_BEGIN} ... ${OPTION_TABLE_END}`);
  return doc.slice(0, begin + OPTION_TABLE_BEGIN.length) + '\n' + targetOptionTable() + doc.slice(end);
}

/** The markers around a command's part of docs/cli.md. */
export const commandMarkers = (name: string): [string, string] => [
  `<!-- kernarg ${name} --help: generated from src/cli/commands.ts by \`npm run docs\` -->`,
  `<!-- end of kernarg ${name} --help -->`,
];

/** docs/cli.md with every command's part (synopses, summary, options) made anew from the command records. */
export function cliDocWithCommandHelp(readme: string): string {
  let out = readme;
  for (const name of COMMAND_NAMES) {
    const [open, close] = commandMarkers(name);
    const begin = out.indexOf(open);
    const end = out.indexOf(close);
    if (begin < 0 || end < begin) throw new Error(`${CLI_DOC} lacks the markers ${open} ... ${close}`);
    out = out.slice(0, begin + open.length) + '\n' + commandReadme(name) + out.slice(end);
  }
  return out;
}

const PHASES: readonly [string, string][] = [
  ['KA1', 'lexing and preprocessing'],
  ['KA2', 'parsing'],
  ['KA3', 'semantic checks'],
  ['KA4', 'targets'],
  ['KA5', 'options'],
  ['KA6', "the command line's files: inputs, outputs, run's arguments"],
  ['KA7', 'compiled kernels: the binary readers (ELF, msgpack, AMDGPU code objects, zebin)'],
];

/** docs/diagnostics.md: every code with its severity and message, by phase. */
export function diagnosticsDoc(): string {
  const all = Object.entries(Messages)
    .map(([name, m]) => ({ name, ...m }))
    .sort((a, b) => a.code.localeCompare(b.code));
  const out = [
    '# Diagnostic codes',
    '',
    'Every diagnostic kernarg gives, one code per message (`{n}` stands for the n-th detail).',
    'Generated from `src/diagnostics/messages.ts` by `npm run docs`; `test/docs.test.ts` checks it.',
  ];
  for (const [prefix, phase] of PHASES) {
    out.push('', `## ${prefix}xxx: ${phase}`, '', '| code | severity | message | name |', '| --- | --- | --- | --- |');
    for (const m of all.filter((x) => x.code.startsWith(prefix)))
      out.push(`| ${m.code} | ${m.severity} | ${m.text.replaceAll('|', '\\|')} | \`${m.name}\` |`);
  }
  return out.join('\n') + '\n';
}

export const ROOT = join(import.meta.dirname, '..');
export const readText = (p: string) => readFileSync(join(ROOT, p), 'utf8');
