// The virtual include tree a driver builds from (see src/build-input/build-input.ts for why a tree and
// not a resolved source): the main file and headers of a portable build input under one folder, named by
// the hash of what it holds, so the same input always gets the same folder (the driver's own cache
// and `__FILE__` stay stable) and processes building it at once share it.
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BuildInput, driverOptions, driverSource, needsTree } from '../../build-input/build-input.js';
import { folderOf } from '../../build-input/paths.js';
import { RuntimeInputError } from '../../pack/errors.js';

/** Where trees go: KERNARG_INCLUDE_TREES, else the system's temporary folder. */
function treesFolder(env: NodeJS.ProcessEnv = process.env): string {
  return env.KERNARG_INCLUDE_TREES || join(tmpdir(), `kernarg-include-trees-${process.getuid?.() ?? 'user'}`);
}

/** Whether `dir` holds exactly these headers' texts (a tree another process wrote, or one damaged since). */
function holds(dir: string, headers: Readonly<Record<string, string>>): boolean {
  try {
    return Object.entries(headers).every(([p, text]) => readFileSync(join(dir, p), 'utf8') === text);
  } catch {
    return false;
  }
}

function write(dir: string, input: BuildInput): void {
  mkdirSync(dir, { recursive: true });
  // -I folders with no header read are made too: the driver is given them.
  for (const f of input.flags) if (f.kind === 'include') mkdirSync(join(dir, f.dir), { recursive: true });
  for (const [p, text] of [[input.path, input.source], ...Object.entries(input.headers)]) {
    mkdirSync(join(dir, folderOf(p)), { recursive: true });
    writeFileSync(join(dir, p), text);
  }
}

/** A written tree: the driver's source and options for it, and the folder (null when the input read no header). */
export interface IncludeTree {
  readonly source: string;
  readonly options: string;
  readonly dir: string | null;
}

/**
 * Writes the tree of a portable build input (checked by buildInputProblem) and returns the driver's
 * options for it. A tree is written into a fresh folder and renamed into place, so a reader sees
 * the whole tree or none; one already in place is used when it holds the same texts.
 */
export function includeTree(input: BuildInput): IncludeTree {
  try {
    return writtenTree(input);
  } catch (e) {
    // A folder that cannot be written is the environment's problem, said as one: no stack trace.
    throw new RuntimeInputError(
      `cannot write the include tree for ${input.path}: ${(e as Error).message} (KERNARG_INCLUDE_TREES names ` +
        `another folder)`,
    );
  }
}

function writtenTree(input: BuildInput): IncludeTree {
  if (!needsTree(input)) return { source: driverSource(input, null), options: driverOptions(input, null), dir: null };
  const files = { ...input.headers, [input.path]: input.source };
  const key = createHash('sha256')
    .update(JSON.stringify([files, input.flags.filter((f) => f.kind === 'include')]))
    .digest('hex')
    .slice(0, 24);
  const base = treesFolder();
  const dir = join(base, key);
  if (!holds(dir, files)) {
    const fresh = join(base, `${key}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
    write(fresh, input);
    // Renaming onto a folder that exists fails: then another process put its tree there first (the same
    // texts, so it is used), or a damaged one is in the way (removed, then the rename is tried once more).
    const place = () => {
      try {
        renameSync(fresh, dir);
        return true;
      } catch {
        return false;
      }
    };
    if (!place()) {
      if (!holds(dir, files)) {
        rmSync(dir, { recursive: true, force: true });
        if (!place() && !holds(dir, files)) throw new Error(`${dir} holds other files and cannot be replaced`);
      }
      rmSync(fresh, { recursive: true, force: true });
    }
  }
  return { source: driverSource(input, dir), options: driverOptions(input, dir), dir };
}

/**
 * The driver's build log with the tree's paths replaced by the folder it stands for (the real files, or the recorded
 * paths).
 */
export function logInTermsOf(log: string, tree: IncludeTree, shownAs: string): string {
  if (!tree.dir) return log;
  return log.split(`${tree.dir}/`).join(shownAs === '.' ? '' : `${shownAs}/`);
}
