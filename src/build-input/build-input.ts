// The one model of what an OpenCL C build needs, shared by every path that hands OpenCL C to a driver:
// `kernarg run`, `kernarg replay`, gen-ts bindings, the runtime's kernel() and the explorer page.
//
// The driver gets a virtual include tree, not a source already resolved: the main file and the
// headers kernarg's preprocessor read are written out under one folder, laid out as they were found,
// and the driver's source is one `#include` of the main file there, with each `-I` in order. So the
// driver runs its own preprocessor over the same files with clang's search order (the including
// file's folder, then -I): include guards, `#pragma once`, and branches on macros only the device
// defines behave as they do for the real files. A source resolved by kernarg would bake kernarg's own
// preprocessing choices into what the driver sees; giving the main source as a string with `-I <its
// folder>` would let every header find files beside the main file, which clang does not (an oracle
// test found such a layout). What the tree costs: `__FILE__` names a file's place in the tree; the
// driver's build log is rewritten back to the real (run) or recorded (replay, bindings) paths.
import type { FileHost } from '../frontend/opencl-c/preprocessor.js';
import type { CommandLineMacro } from '../frontend/opencl-c/preprocessor.js';
import { CL_STDS, type ClStd } from '../frontend/opencl-c/predefined.js';
import { assertNever } from '../assert-never.js';
import { commonFolder, folderOf, isTreePath, joinPaths, relativeTo, resolvePath } from './paths.js';

/** One build option kernarg and the driver both read, in command-line order. */
export type BuildFlag =
  | { readonly kind: 'include'; readonly dir: string }
  | { readonly kind: 'define'; readonly name: string; readonly value?: string }
  | { readonly kind: 'undefine'; readonly name: string }
  | { readonly kind: 'std'; readonly std: ClStd };

/** What a build of OpenCL C for a driver needs, and nothing else: plain data (JSON as it stands). */
export interface BuildInput {
  /** The main source's path as kernarg read it (in a portable input: relative to the tree's root). */
  readonly path: string;
  readonly source: string;
  /** Every header kernarg's preprocessor read: the path it read it at → its text, in reading order. */
  readonly headers: Readonly<Record<string, string>>;
  /** `-I`, `-D`, `-U` and `--cl-std` in command-line order. */
  readonly flags: readonly BuildFlag[];
  /** Driver options kernarg does not read (`-cl-mad-enable`), passed on after the others. */
  readonly extra?: string;
}

/** The language standard a build input names (its last `--cl-std`), CL1.2 when none. */
export function buildStd(input: BuildInput): ClStd {
  let std: ClStd = 'CL1.2';
  for (const f of input.flags) if (f.kind === 'std') std = f.std;
  return std;
}

/** What `lower()` takes from a build input: the standard, the include folders, the macros in order. */
export function frontendOptions(input: Pick<BuildInput, 'flags'>): {
  std: ClStd;
  includeDirs: string[];
  commandLine: CommandLineMacro[];
} {
  let std: ClStd = 'CL1.2';
  const includeDirs: string[] = [];
  const commandLine: CommandLineMacro[] = [];
  for (const f of input.flags) {
    switch (f.kind) {
      case 'std':
        std = f.std;
        break;
      case 'include':
        includeDirs.push(f.dir);
        break;
      case 'define':
        commandLine.push({ define: f.name, ...(f.value !== undefined ? { value: f.value } : {}) });
        break;
      case 'undefine':
        commandLine.push({ undefine: f.name });
        break;
      default:
        assertNever(f);
    }
  }
  return { std, includeDirs, commandLine };
}

/**
 * A file host that records every file it returns: the headers of a build input. A failed read is
 * not recorded (the driver will not find it in the tree either, and stops the same way).
 */
export function recordingHost(host: FileHost): { readonly host: FileHost; readonly headers: Record<string, string> } {
  const headers: Record<string, string> = Object.create(null);
  return {
    headers,
    host: {
      readFile(path) {
        const text = host.readFile(path);
        if (typeof text === 'string') headers[path] = text;
        return text;
      },
    },
  };
}

/** A `-D` value goes to the driver in double quotes when a space or quote would split it. */
function optionWord(word: string): string {
  return /[\s"'\\]/.test(word) ? `"${word.replace(/(["\\])/g, '\\$1')}"` : word;
}

/**
 * The macros after the command line, name by name: a name's last `-D` or `-U` decides it. OpenCL's
 * build options have `-D` but no `-U`, so the driver gets the `-D`s that stand and an `#undef` of
 * every name whose last word is `-U` (driverSource), which undefines the driver's own macros too.
 */
function netMacros(flags: readonly BuildFlag[]): {
  defines: Extract<BuildFlag, { kind: 'define' }>[];
  undefines: string[];
} {
  const last = new Map<string, BuildFlag>();
  for (const f of flags) {
    // A function-like macro's name is the part before its parameters.
    if (f.kind === 'define' || f.kind === 'undefine') {
      const name = /^\w+/.exec(f.name)![0];
      last.delete(name);
      last.set(name, f);
    }
  }
  const defines: Extract<BuildFlag, { kind: 'define' }>[] = [];
  const undefines: string[] = [];
  for (const [name, f] of last) {
    if (f.kind === 'define') defines.push(f);
    else undefines.push(name);
  }
  return { defines, undefines };
}

/** The include folders as the driver gets them: each `-I` in order (none without a tree: nothing to find). */
function includeWords(input: BuildInput, root: string | null): string[] {
  if (root === null) return [];
  const at = (dir: string) => `-I ${optionWord(root === '.' ? dir : joinPaths(root, dir))}`;
  return input.flags.flatMap((f) => (f.kind === 'include' ? [at(f.dir)] : []));
}

const defineWord = (f: Extract<BuildFlag, { kind: 'define' }>) =>
  `-D ${optionWord(f.value === undefined ? f.name : `${f.name}=${f.value}`)}`;

/**
 * The driver's options for a build input whose tree sits at `root` (null: no headers, no tree):
 * `-cl-std`, each `-I` in the tree, the `-D`s that stand, then the extra options.
 */
export function driverOptions(input: BuildInput, root: string | null): string {
  const extra = input.extra?.trim() ? [input.extra.trim()] : [];
  return [
    `-cl-std=${buildStd(input)}`,
    ...includeWords(input, root),
    ...netMacros(input.flags).defines.map(defineWord),
    ...extra,
  ].join(' ');
}

/**
 * The source the driver compiles: an `#undef` of each name the command line's `-U` leaves undefined,
 * then, with a tree at `root`, an `#include` of the main file in it (so its own folder is searched
 * first for its includes, as clang does for a file), else the main source itself.
 */
export function driverSource(input: BuildInput, root: string | null): string {
  const undef = netMacros(input.flags)
    .undefines.map((n) => `#undef ${n}\n`)
    .join('');
  if (root !== null) return `${undef}#include "${joinPaths(root, input.path)}"\n`;
  // `#line 1` keeps the driver's line numbers those of the file.
  return undef ? `${undef}#line 1\n${input.source}` : input.source;
}

/**
 * The options as a person reads them (a capture, a build error) and as the build cache keys them:
 * `-I` as paths in the tree (`.` for its root), `-D` and `-U` as the command line gave them.
 */
export function shownOptions(input: BuildInput): string {
  const macros = input.flags.flatMap((f) =>
    f.kind === 'define' ? [defineWord(f)] : f.kind === 'undefine' ? [`-U ${f.name}`] : [],
  );
  const extra = input.extra?.trim() ? [input.extra.trim()] : [];
  return [
    `-cl-std=${buildStd(input)}`,
    ...includeWords(input, needsTree(input) ? '.' : null),
    ...macros,
    ...extra,
  ].join(' ');
}

/** Whether the driver needs an include tree for this input: it read headers. */
export function needsTree(input: BuildInput): boolean {
  return Object.keys(input.headers).length > 0;
}

/** A portable build input, and the absolute folder its relative paths were taken from. */
export interface PortableBuild {
  readonly input: BuildInput;
  /** The real folder the tree stands for (absolute): where the driver's messages point back to. */
  readonly root: string;
}

/**
 * The build input with every path relative to one folder: the deepest folder holding the main
 * file, every header and every `-I` folder (relative paths are taken from `cwd`). What a capture and
 * a bindings module store: no absolute path of the machine that made them.
 */
export function portableBuild(input: BuildInput, cwd: string): PortableBuild {
  const abs = (p: string) => resolvePath(cwd, p);
  const dirs = input.flags.flatMap((f) => (f.kind === 'include' ? [abs(f.dir)] : []));
  const root = commonFolder([
    folderOf(abs(input.path)),
    ...Object.keys(input.headers).map((h) => folderOf(abs(h))),
    ...dirs,
  ]);
  const headers: Record<string, string> = Object.create(null);
  for (const [p, text] of Object.entries(input.headers)) headers[relativeTo(root, abs(p))] = text;
  const flags = input.flags.map((f): BuildFlag =>
    f.kind === 'include' ? { kind: 'include', dir: relativeTo(root, abs(f.dir)) } : f,
  );
  return { root, input: { ...input, path: relativeTo(root, abs(input.path)), headers, flags } };
}

/** Why a build input read from a file (a capture, a module) cannot be built; undefined when it can. */
export function buildInputProblem(x: unknown): string | undefined {
  const b = x as Partial<BuildInput>;
  if (typeof b !== 'object' || b === null) return 'must be an object';
  if (typeof b.path !== 'string' || !isTreePath(b.path))
    return '"path" must be a relative path inside the tree (no "..", not absolute)';
  if (typeof b.source !== 'string') return '"source" must be a string';
  if (b.extra !== undefined && typeof b.extra !== 'string') return '"extra" must be a string';
  if (typeof b.headers !== 'object' || b.headers === null || Array.isArray(b.headers))
    return '"headers" must be an object of path → text';
  for (const [p, text] of Object.entries(b.headers)) {
    if (!isTreePath(p))
      return `header '${p}': a header's path must be relative and inside the tree (no "..", not absolute)`;
    if (typeof text !== 'string') return `header '${p}': its text must be a string`;
  }
  if (!Array.isArray(b.flags)) return '"flags" must be an array';
  for (const f of b.flags as unknown[]) {
    const g = f as Partial<Record<string, unknown>>;
    const ok =
      typeof g === 'object' &&
      g !== null &&
      ((g.kind === 'include' && typeof g.dir === 'string' && (g.dir === '.' || isTreePath(g.dir))) ||
        (g.kind === 'define' &&
          typeof g.name === 'string' &&
          /^[A-Za-z_]\w*(\(.*\))?$/.test(g.name) &&
          (g.value === undefined || (typeof g.value === 'string' && !/[\r\n]/.test(g.value)))) ||
        (g.kind === 'undefine' && typeof g.name === 'string' && /^[A-Za-z_]\w*$/.test(g.name)) ||
        (g.kind === 'std' && (CL_STDS as readonly unknown[]).includes(g.std)));
    if (!ok)
      return `flag ${JSON.stringify(f)} is not an include folder, a macro, an undefine or a standard kernarg knows`;
  }
  return undefined;
}
