// POSIX path arithmetic for build inputs, without Node (the core runs in a browser too). Paths are
// those kernarg's preprocessor reads: '/'-separated, absolute or relative to the working folder.
import { dirname, joinPath } from '../frontend/opencl-c/include-path.js';

/**
 * The path with `.` and empty parts removed and `..` applied (`..` above a relative path's start is kept): the
 * preprocessor's own.
 */
export function normalize(p: string): string {
  return joinPath('.', p);
}

/** The folder a file is in (`.` for a bare name). */
export function folderOf(p: string): string {
  return dirname(normalize(p));
}

/** `name` inside `dir` (an absolute `name` stands alone), as the preprocessor joins an include's name to a folder. */
export const joinPaths = joinPath;

/** `p` as an absolute path, relative ones taken from the absolute folder `cwd`. */
export function resolvePath(cwd: string, p: string): string {
  return joinPaths(cwd, p);
}

/** The deepest folder that holds every one of these absolute folders. */
export function commonFolder(dirs: readonly string[]): string {
  let common = dirs[0].split('/').filter(Boolean);
  for (const d of dirs.slice(1)) {
    const parts = d.split('/').filter(Boolean);
    let i = 0;
    while (i < common.length && i < parts.length && common[i] === parts[i]) i++;
    common = common.slice(0, i);
  }
  return `/${common.join('/')}`;
}

/** The absolute path `p` relative to the absolute folder `root` that holds it (`.` for root itself). */
export function relativeTo(root: string, p: string): string {
  if (root === '/') return p.slice(1) || '.';
  return p === root ? '.' : p.slice(root.length + 1);
}

/**
 * Whether `p` is a file's place inside a tree: relative, normalized, no `..`; nothing an `#include "…"` cannot spell
 * (NUL, newline, quote, backslash).
 */
export function isTreePath(p: string): boolean {
  return (
    p.length > 0 &&
    p !== '.' &&
    !p.startsWith('/') &&
    !/[\0\r\n"\\]/.test(p) &&
    p.split('/').every((part) => part !== '' && part !== '.' && part !== '..')
  );
}
