// The page's whole state, and its round trip through the URL's fragment (the share link).
import { type ClStd, DEFAULT_CL_STD, type TargetName } from 'kernarg';
import { EXAMPLES } from './examples.js';
import { FILE_PATH, type HeaderFile, validFiles } from './paths.js';
import { ALL_TARGETS, CL_VERSIONS } from './target-options.js';

export type { HeaderFile };

export type View = 'drawing' | 'table' | 'json' | 'text';

export interface AppState {
  /** File name the core compiles; its extension picks the language (.cl or .ir). */
  file: string;
  source: string;
  /** The other files: what `#include` finds (the page's folder acts as the main file's folder and as `-I .`). */
  headers: HeaderFile[];
  defines: string;
  std: ClStd;
  /** Targets shown, in the order of the registry. */
  targets: TargetName[];
  /** Target options as `target.key` → value; absent keys take the default. */
  options: Record<string, string>;
  /** The kernel drawn, when the source has several. */
  kernel: string;
  view: View;
  /** The text format each target shows in the Text view (`target` → format), when not its first. */
  formats: Record<string, string>;
  /** Two-source mode: `old` is the earlier version of the source, diffed against `source`. */
  compare: boolean;
  old: string;
  /**
   * A compiled kernel opened or dropped (a code object, PTX, SPIR-V, a zebin): while set, the page
   * draws the plan read from it instead of lowering the source. Not in the share link (it is bytes).
   */
  binary?: { readonly path: string; readonly bytes: Uint8Array };
}

export function defaultState(): AppState {
  const ex = EXAMPLES[0];
  return {
    file: ex.file,
    source: ex.source,
    headers: (ex.headers ?? []).map((h) => ({ ...h })),
    defines: '',
    std: DEFAULT_CL_STD,
    targets: ['opencl', 'vulkan', 'amdhsa'],
    options: {},
    kernel: '',
    view: 'drawing',
    formats: {},
    compare: false,
    old: '',
  };
}

const VIEWS: readonly View[] = ['drawing', 'table', 'json', 'text'];

/** Keeps only well-formed fields of decoded state; anything else falls back to the default. */
function sanitize(raw: unknown): AppState {
  const s = defaultState();
  if (typeof raw !== 'object' || raw === null) return s;
  const r = raw as Record<string, unknown>;
  if (typeof r.file === 'string' && FILE_PATH.test(r.file) && /\.(cl|ir)$/.test(r.file)) s.file = r.file;
  if (typeof r.source === 'string') s.source = r.source;
  // A link from before files existed has no headers: it holds one file, so none.
  s.headers = validFiles(r.headers, s.file);
  if (typeof r.defines === 'string') s.defines = r.defines;
  if (typeof r.std === 'string' && (CL_VERSIONS as readonly string[]).includes(r.std)) s.std = r.std as ClStd;
  if (Array.isArray(r.targets)) s.targets = ALL_TARGETS.filter((t) => (r.targets as unknown[]).includes(t));
  if (typeof r.options === 'object' && r.options !== null) {
    for (const [k, v] of Object.entries(r.options)) if (typeof v === 'string') s.options[k] = v;
  }
  if (typeof r.kernel === 'string') s.kernel = r.kernel;
  if (typeof r.view === 'string' && (VIEWS as readonly string[]).includes(r.view)) s.view = r.view as View;
  if (typeof r.formats === 'object' && r.formats !== null) {
    for (const [k, v] of Object.entries(r.formats)) if (typeof v === 'string') s.formats[k] = v;
  }
  if (typeof r.compare === 'boolean') s.compare = r.compare;
  if (typeof r.old === 'string') s.old = r.old;
  return s;
}

function toBase64Url(bytes: Uint8Array): string {
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array {
  const bin = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

/** Bytes through the browser's (de)compression stream. */
async function pipe(bytes: Uint8Array, stream: CompressionStream | DecompressionStream): Promise<Uint8Array> {
  const out = new Blob([bytes as BlobPart]).stream().pipeThrough(stream);
  return new Uint8Array(await new Response(out).arrayBuffer());
}

/** An example's file with this path and text, named as `example id`: a link names it instead of holding it. */
function exampleWith(path: string, text: string): string | undefined {
  for (const e of EXAMPLES) {
    if (e.file === path && e.source === text) return e.id;
    if (e.headers?.some((h) => h.path === path && h.text === text)) return e.id;
  }
  return undefined;
}

/** The text of an example's file, or undefined for an unknown example or path. */
function exampleText(id: unknown, path: unknown): string | undefined {
  const e = EXAMPLES.find((x) => x.id === id);
  if (!e || typeof path !== 'string') return undefined;
  return e.file === path ? e.source : e.headers?.find((h) => h.path === path)?.text;
}

/**
 * The state as a link writes it: files an example holds unchanged are named (`from`: the example)
 * rather than copied, and the old version is flagged when it equals the source, so a link to a real
 * kernel with its headers stays short.
 */
function linkForm(s: AppState): Record<string, unknown> {
  const out: Record<string, unknown> = { ...s };
  const mainFrom = exampleWith(s.file, s.source);
  if (mainFrom) {
    delete out.source;
    out.sourceFrom = mainFrom;
  }
  out.headers = s.headers.map((h) => {
    const from = exampleWith(h.path, h.text);
    return from ? { path: h.path, from } : h;
  });
  if (s.old === s.source) {
    delete out.old;
    out.oldIsSource = true;
  }
  return out;
}

/** The link's form back to plain fields (named example files read from the examples), for `sanitize`. */
function fromLinkForm(r: Record<string, unknown>): Record<string, unknown> {
  const out = { ...r };
  if (out.sourceFrom !== undefined) out.source = exampleText(out.sourceFrom, out.file);
  if (Array.isArray(out.headers)) {
    out.headers = (out.headers as unknown[]).map((h) => {
      if (typeof h !== 'object' || h === null || !('from' in h)) return h;
      const { path, from } = h as Record<string, unknown>;
      return { path, text: exampleText(from, path) };
    });
  }
  if (out.oldIsSource === true) out.old = out.source;
  return out;
}

/** `#z=` + deflate-raw of the JSON state, base64url: short enough for a chat message. */
export async function encodeState(s: AppState): Promise<string> {
  const json = new TextEncoder().encode(JSON.stringify(linkForm(s)));
  return `z=${toBase64Url(await pipe(json, new CompressionStream('deflate-raw')))}`;
}

/** The state a fragment holds, or undefined when it holds none (or a damaged one). */
export async function decodeState(fragment: string): Promise<AppState | undefined> {
  const m = /^#?z=([\w-]+)$/.exec(fragment);
  if (!m) return undefined;
  try {
    const bytes = await pipe(fromBase64Url(m[1]), new DecompressionStream('deflate-raw'));
    const raw: unknown = JSON.parse(new TextDecoder().decode(bytes));
    return sanitize(typeof raw === 'object' && raw !== null ? fromLinkForm(raw as Record<string, unknown>) : raw);
  } catch {
    return undefined;
  }
}
