// The explorer bundle's size, as the README states it: the script and the CSS, minified and gzip'd
// (level 9), and the script's characters attributed to their sources through its source map.
// `node --import tsx test/web/bundle-size.ts` prints the figures after `npm run build:web`.
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { DIST } from './browser.js';

export interface BundleSize {
  readonly js: number;
  readonly jsGzip: number;
  readonly css: number;
  readonly cssGzip: number;
  /** Characters of the script by where they come from. */
  readonly parts: Readonly<Record<Part, number>>;
}

export type Part = 'codemirror' | 'core' | 'page' | 'other';

const ROOT = join(DIST, '..', '..');
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** One line of a source map's mappings as segments of numbers (base64 VLQ). */
function segments(line: string): number[][] {
  const out: number[][] = [];
  for (const seg of line.split(',')) {
    if (seg === '') continue;
    const nums: number[] = [];
    let value = 0;
    let shift = 0;
    for (const ch of seg) {
      const digit = B64.indexOf(ch);
      value += (digit & 31) << shift;
      if (digit & 32) shift += 5;
      else {
        nums.push(value & 1 ? -(value >>> 1) : value >>> 1);
        value = 0;
        shift = 0;
      }
    }
    out.push(nums);
  }
  return out;
}

function partOf(source: string): Part {
  if (/node_modules\/(@codemirror|@lezer|@marijn|style-mod|w3c-keyname|crelt)\//.test(source)) return 'codemirror';
  if (source.startsWith('web/')) return 'page';
  if (source.startsWith('src/')) return 'core';
  return 'other';
}

/** Characters of generated code attributed to each part: a segment's source owns the text up to the next segment. */
export function attribute(
  code: string,
  map: { sources: string[]; mappings: string },
  mapDir: string,
): Record<Part, number> {
  const parts: Record<Part, number> = { codemirror: 0, core: 0, page: 0, other: 0 };
  const sources = map.sources.map((s) => partOf(relative(ROOT, resolve(mapDir, s))));
  const lines = code.split('\n');
  let src = 0;
  map.mappings.split(';').forEach((mapping, i) => {
    const text = lines[i] ?? '';
    // Generated columns count from the line's start; the source index runs on across lines.
    let col = 0;
    let owner: Part = 'other';
    for (const seg of segments(mapping)) {
      const at = col + seg[0];
      parts[owner] += at - col;
      col = at;
      if (seg.length >= 4) {
        src += seg[1];
        owner = sources[src] ?? 'other';
      } else owner = 'other';
    }
    parts[owner] += text.length - col;
  });
  return parts;
}

export function bundleSize(): BundleSize {
  const assets = join(DIST, 'assets');
  const files = readdirSync(assets);
  let js = 0;
  let jsGzip = 0;
  let css = 0;
  let cssGzip = 0;
  const parts: Record<Part, number> = { codemirror: 0, core: 0, page: 0, other: 0 };
  for (const f of files) {
    const bytes = readFileSync(join(assets, f));
    if (f.endsWith('.js')) {
      js += bytes.length;
      jsGzip += gzipSync(bytes, { level: 9 }).length;
      const map = JSON.parse(readFileSync(join(assets, `${f}.map`), 'utf8')) as { sources: string[]; mappings: string };
      const got = attribute(bytes.toString('utf8'), map, assets);
      for (const p of Object.keys(parts) as Part[]) parts[p] += got[p];
    } else if (f.endsWith('.css')) {
      css += bytes.length;
      cssGzip += gzipSync(bytes, { level: 9 }).length;
    }
  }
  return { js, jsGzip, css, cssGzip, parts };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const s = bundleSize();
  const kb = (n: number) => `${(n / 1000).toFixed(1)} KB`;
  console.log(`script ${kb(s.js)} minified, ${kb(s.jsGzip)} gzip; CSS ${kb(s.css)}, ${kb(s.cssGzip)} gzip`);
  for (const [p, n] of Object.entries(s.parts)) console.log(`  ${p}: ${kb(n)}`);
}
