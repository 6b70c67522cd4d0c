// Path arithmetic for #include and -I, as clang resolves them: '/'-separated, `.` and `..` applied
// lexically (no file system access: the core runs in a browser too).

/** The folder a path is in (`.` for a bare name). */
export function dirname(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? '.' : i === 0 ? '/' : path.slice(0, i);
}

export function joinPath(dir: string, name: string): string {
  if (name.startsWith('/')) return normalizePath(name);
  return normalizePath(dir === '.' ? name : `${dir}/${name}`);
}

function normalizePath(p: string): string {
  const abs = p.startsWith('/');
  const out: string[] = [];
  for (const part of p.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..' && out.length && out[out.length - 1] !== '..') out.pop();
    else if (part !== '..' || !abs) out.push(part);
  }
  return (abs ? '/' : '') + (out.join('/') || (abs ? '' : '.'));
}
