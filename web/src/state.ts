// The page's whole state, and its round trip through the URL's fragment (the share link).
import type { ClStd, TargetName } from 'kernarg';
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
}

export function defaultState(): AppState {
  const ex = EXAMPLES[0];
  return { file: ex.file, source: ex.source, headers: (ex.headers ?? []).map((h) => ({ ...h })), defines: '', std: 'CL1.2', targets: ['opencl', 'vulkan', 'amdhsa'], options: {}, kernel: '', view: 'drawing', formats: {}, compare: false, old: '' };
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

/** `#z=` + deflate-raw of the JSON state, base64url: short enough for a chat message. */
export async function encodeState(s: AppState): Promise<string> {
  const json = new TextEncoder().encode(JSON.stringify(s));
  return `z=${toBase64Url(await pipe(json, new CompressionStream('deflate-raw')))}`;
}

/** The state a fragment holds, or undefined when it holds none (or a damaged one). */
export async function decodeState(fragment: string): Promise<AppState | undefined> {
  const m = /^#?z=([\w-]+)$/.exec(fragment);
  if (!m) return undefined;
  try {
    const bytes = await pipe(fromBase64Url(m[1]), new DecompressionStream('deflate-raw'));
    return sanitize(JSON.parse(new TextDecoder().decode(bytes)));
  } catch {
    return undefined;
  }
}
