// The commands of `kernarg`, one record each: what `kernarg --help` says of it, its own `--help`
// (synopsis and option sections, made from the same option records its parser reads), and the
// function that runs it. The README's per-command tables are made from these records too
// (`npm run docs`; test/cli-help.test.ts compares them with each command's `--help`).
import { KERNARG_VERSION } from '../version.js';
import { type OptionSpec, optionFlag, optionHelp } from './args.js';
import { CHECK_NOTES, CHECK_OWN_OPTIONS, EXIT_DIFFERENT, checkCommand } from './check-command.js';
import { DEVICES_OPTIONS, devicesCommand } from './devices-command.js';
import { DIFF_OPTIONS, EXIT_BREAKING, diffCommand } from './diff-command.js';
import { GEN_TS_OPTIONS, genTsCommand } from './gen-ts-command.js';
import type { CliIO } from './io.js';
import { lowerCommand } from './lower-command.js';
import { LOWER_OWN_OPTIONS, TARGET_FLAG_OPTIONS } from './lower-settings.js';
import { REPLAY_OPTIONS, replayCommand } from './replay-command.js';
import { RUN_JSON_HELP, RUN_OPTIONS, runCommand } from './run-command.js';

export const COMMAND_NAMES = ['lower', 'diff', 'check', 'run', 'gen-ts', 'devices', 'replay'] as const;
export type CommandName = (typeof COMMAND_NAMES)[number];

/** A titled group of options in a command's help. */
export interface OptionSection {
  readonly title: string;
  readonly options: readonly OptionSpec[];
  /** Where the README shows these options instead of in the command's own table (the target option table). */
  readonly readmeElsewhere?: string;
}

export interface CommandRecord {
  /** One line for `kernarg --help`. */
  readonly summary: string;
  /** The command's synopses, each after `kernarg `. */
  readonly usage: readonly string[];
  readonly sections: readonly OptionSection[];
  /** Text after the options (run's JSON contract); none for most commands. */
  readonly notes?: string;
  readonly run: (argv: readonly string[], io: CliIO) => number;
}

export const COMMANDS = {
  lower: {
    summary: "every kernel's argument ABI for one target, in one format",
    usage: [
      'lower <file.cl|file.ir|-> --target <target> [--format <format>] [-o <file>] [options]',
      'lower <file>... --output-dir <dir> --target <target> [--format <format>] [options]',
    ],
    sections: [
      { title: 'options', options: LOWER_OWN_OPTIONS },
      {
        title: "target options (from each target's record; a target refuses another's)",
        options: TARGET_FLAG_OPTIONS,
        readmeElsewhere: 'target options',
      },
    ],
    run: lowerCommand,
  },
  diff: {
    summary:
      `the ABI difference of two sources, option sets or targets; exit ${EXIT_BREAKING} when a change is ` + `breaking`,
    usage: [
      'diff <old> <new> --target <target> [--old-opt <option>]... [--new-opt <option>]... [--format table|json] ' +
        '[lower options]',
      'diff <old> <new> --old-target <target> --new-target <target> [lower options]',
    ],
    sections: [
      {
        title: "options (and every lower option, which applies to both sides: 'kernarg lower --help')",
        options: DIFF_OPTIONS,
      },
    ],
    run: diffCommand,
  },
  check: {
    summary:
      `a compiled kernel against its source: the source lowered as the binary implies, compared slot by ` +
      `slot; exit ${EXIT_DIFFERENT} when they differ`,
    usage: [
      'check <file.cl|file.ir> <binary> [--format table|json] [-I <dir>] [-D <name>[=<value>]] [-U <name>] ' +
        '[--cl-std <CLx.y>] [target options]',
    ],
    sections: [
      {
        title:
          "options (and lower's build and target options: 'kernarg lower --help'; target options given here " +
          'override what the binary implies)',
        options: CHECK_OWN_OPTIONS,
      },
    ],
    notes: CHECK_NOTES,
    run: checkCommand,
  },
  run: {
    summary: 'build and launch one kernel on an OpenCL or Vulkan device; print its arguments after the run as JSON',
    usage: [
      'run <file.cl|file.ir> --kernel <name> --args <file.json> [--global x[,y[,z]]] [--local ...] [--howmany n] ' +
        '[--device <substring>] [--api opencl|vulkan]',
      'run <shader.spv> --args <file.json> (--global x[,y[,z]] | --groups x[,y[,z]]) [--local ...] [--kernel ' +
        '<entry>] [--device <substring>] [--api vulkan]',
    ],
    sections: [{ title: 'options', options: RUN_OPTIONS }],
    notes: RUN_JSON_HELP,
    run: runCommand,
  },
  'gen-ts': {
    summary: "typed TypeScript bindings of a file's kernels, importing only kernarg/runtime",
    usage: [
      'gen-ts <file.cl|file.ir> [-o <out.ts>] [-I <dir>] [-D <name>[=<value>]] [--cl-std <CLx.y>]',
      'gen-ts <shader.spv> [-o <out.ts>]',
    ],
    sections: [{ title: 'options', options: GEN_TS_OPTIONS }],
    run: genTsCommand,
  },
  devices: {
    summary: 'the OpenCL and Vulkan devices kernarg can run on, with the names --device picks by',
    usage: ['devices [--api opencl|vulkan|all] [--json]'],
    sections: [{ title: 'options', options: DEVICES_OPTIONS }],
    run: devicesCommand,
  },
  replay: {
    summary: 'run a captured launch again and print every buffer after it',
    usage: ['replay <capture.json> [--device <substring>]'],
    sections: [{ title: 'options', options: REPLAY_OPTIONS }],
    run: replayCommand,
  },
} as const satisfies Record<CommandName, CommandRecord>;

export const isCommand = (name: string): name is CommandName => (COMMAND_NAMES as readonly string[]).includes(name);

/** `kernarg <command> --help`: the command's synopses, then its own options by section, then its notes. */
export function commandHelp(name: CommandName): string {
  const c: CommandRecord = COMMANDS[name];
  const usage = c.usage.map((u, i) => `${i ? '       ' : 'Usage: '}kernarg ${u}`).join('\n');
  const sections = c.sections.map((s) => `${s.title}:\n${optionHelp(s.options)}`).join('\n');
  return `${usage}\n\n${c.summary}.\n\n${sections}${c.notes ? `\n${c.notes}` : ''}`;
}

/** `kernarg --help`: every command in a line, and where each one's options are told. */
export function mainHelp(): string {
  const width = Math.max(...COMMAND_NAMES.map((n) => n.length));
  const commands = COMMAND_NAMES.map((n) => `  ${n.padEnd(width)}  ${COMMANDS[n].summary}`).join('\n');
  const usage = COMMAND_NAMES.map((n) => `  kernarg ${COMMANDS[n].usage[0]}`).join('\n');
  return `kernarg ${KERNARG_VERSION} — kernel-argument ABI compiler

Usage:
${usage}
  kernarg <command> --help    the command's own options
  kernarg --help | --version

Commands:
${commands}

Environment: KERNARG_CACHE_DIR (build cache folder), KERNARG_CACHE=0 (no build cache),
KERNARG_CAPTURE=<dir> (write every launch there for kernarg replay).
Exit codes: 0 success, 1 input errors (diagnostics on stderr), 2 usage errors; diff: ${EXIT_BREAKING} when a change is breaking;
check: ${EXIT_DIFFERENT} when the binary differs from the source.
`;
}

/**
 * The README's part for one command, made from its record: synopses, summary, and its options as a table per section.
 */
export function commandReadme(name: CommandName): string {
  const c: CommandRecord = COMMANDS[name];
  // A table cell's '|' is escaped, inside code spans too (GitHub's tables split on any other).
  const cell = (text: string) => text.replaceAll('|', '\\|');
  const out = [
    '```',
    ...c.usage.map((u) => `kernarg ${u}`),
    '```',
    '',
    `${c.summary[0].toUpperCase()}${c.summary.slice(1)}.`,
  ];
  for (const s of c.sections) {
    out.push(
      '',
      `${s.title[0].toUpperCase()}${s.title.slice(1)}${s.readmeElsewhere ? `: see the ${s.readmeElsewhere} table.` : ':'}`,
    );
    if (s.readmeElsewhere) continue;
    out.push(
      '',
      '| option | meaning |',
      '| --- | --- |',
      ...s.options.map((o) => `| \`${cell(optionFlag(o))}\` | ${cell(o.help)} |`),
    );
  }
  return out.join('\n') + '\n';
}
