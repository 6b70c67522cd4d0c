// POSIX path arithmetic for build inputs, without Node (the core runs in a browser too). Paths are
// those kernarg's preprocessor reads: '/'-separated, absolute or relative to the working folder.

/** The path with `.` and empty parts removed and `..` applied (`..` above a relative path's start is kept). */
export function normalize(p: string): string {
  const abs = p.startsWith('/');
  const out: string[] = [];
  for (const part of p.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..' && out.length && out[out.length - 1] !== '..') out.pop();
    else if (part !== '..' || !abs) out.push(part);
  }
  return (abs ? '/' : '') + (out.join('/') || (abs ? '' : '.'));
}

/** The folder a file is in (`.` for a bare name). */
export function folderOf(p: string): string {
  const n = normalize(p);
  const i = n.lastIndexOf('/');
  return i < 0 ? '.' : i === 0 ? '/' : n.slice(0, i);
}

/** `name` inside `dir` (an absolute `name` stands alone). */
export function joinPaths(dir: string, name: string): string {
  if (name.startsWith('/')) return normalize(name);
  return normalize(dir === '.' ? name : `${dir}/${name}`);
}

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

/** Whether `p` is a file's place inside a tree: relative, normalized, no `..`; nothing an `#include "…"` cannot spell (NUL, newline, quote, backslash). */
export function isTreePath(p: string): boolean {
  return p.length > 0 && p !== '.' && !p.startsWith('/') && !/[\0\r\n"\\]/.test(p) && p.split('/').every((part) => part !== '' && part !== '.' && part !== '..');
}
