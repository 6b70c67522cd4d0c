// A small builder for SVG elements.
const NS = 'http://www.w3.org/2000/svg';

export type Attrs = Readonly<Record<string, string | number | undefined>>;

export function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: (Node | string)[]
): SVGElementTagNameMap[K] {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined) e.setAttribute(k, String(v));
  for (const c of children) e.append(c);
  return e;
}

/** Monospace text is about 0.6 em wide per character: cut a label to fit a width. */
export function fit(text: string, width: number, fontSize: number): string {
  const max = Math.floor(width / (fontSize * 0.62));
  if (text.length <= max) return text;
  if (max <= 1) return '';
  return text.slice(0, max - 1) + '…';
}
