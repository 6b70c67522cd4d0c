// File paths of the page's files: which are accepted, how opened folders map onto them, and which
// decoded files (from a share link) are kept. No imports, so Node's tests load it as it is.

/** A file of the page: a header, or another source, by its path relative to the main file's folder. */
export interface HeaderFile {
  path: string;
  text: string;
}

/**
 * Paths the page accepts for files: relative, `/`-separated, no `.` or `..` segment (they all live in one folder tree).
 */
export const FILE_PATH = /^(?!.*(?:^|\/)\.\.?(?:\/|$))[\w.+-]+(?:\/[\w.+-]+)*$/;

/** Files a kernel source can be: the main file's candidates. */
export const isKernelSource = (path: string): boolean => /\.(cl|ir)$/.test(path);

/** Paths relative to the opened folder: the folder's own name, shared by every path, is dropped. */
export function relativeToFolder(paths: readonly string[]): string[] {
  const split = paths.map((p) => p.replace(/^\/+/, '').split('/'));
  const top = split[0]?.[0];
  const shared = split.length > 0 && split.every((s) => s.length > 1 && s[0] === top);
  return split.map((s) => (shared ? s.slice(1) : s).join('/'));
}

/** Well-formed files of a decoded state: valid distinct paths, none the main file's; anything else is dropped. */
export function validFiles(raw: unknown, main: string): HeaderFile[] {
  if (!Array.isArray(raw)) return [];
  const out: HeaderFile[] = [];
  for (const h of raw as unknown[]) {
    if (typeof h !== 'object' || h === null) continue;
    const { path, text } = h as Record<string, unknown>;
    if (
      typeof path !== 'string' ||
      typeof text !== 'string' ||
      !FILE_PATH.test(path) ||
      path === main ||
      out.some((o) => o.path === path)
    )
      continue;
    out.push({ path, text });
  }
  return out;
}
