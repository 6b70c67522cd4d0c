// Copying and exporting: a drawing as a standalone SVG (styles inlined) or a PNG.

/** Presentation properties the page's CSS sets on drawings, copied inline for export. */
const STYLE_PROPS = [
  'fill',
  'fill-opacity',
  'stroke',
  'stroke-width',
  'stroke-dasharray',
  'opacity',
  'font-family',
  'font-size',
  'font-weight',
  'text-anchor',
  'dominant-baseline',
];

/** A standalone SVG document of a drawing as it looks now (theme and highlight included). */
export function standaloneSvg(drawing: SVGSVGElement): string {
  const clone = drawing.cloneNode(true) as SVGSVGElement;
  const from = [drawing, ...drawing.querySelectorAll('*')];
  const to = [clone, ...clone.querySelectorAll('*')];
  from.forEach((el, i) => {
    const cs = getComputedStyle(el);
    const target = to[i] as SVGElement;
    const decl = STYLE_PROPS.map((p) => `${p}:${cs.getPropertyValue(p)}`).join(';');
    target.setAttribute('style', decl);
    target.removeAttribute('tabindex');
  });
  clone.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  const bg = document.createElementNS('http://www.w3.org/2000/svg', 'rect');
  bg.setAttribute('width', '100%');
  bg.setAttribute('height', '100%');
  bg.setAttribute('fill', getComputedStyle(drawing.closest('.panel') ?? document.body).backgroundColor);
  clone.insertBefore(bg, clone.firstChild);
  return new XMLSerializer().serializeToString(clone);
}

function download(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function exportSvg(drawing: SVGSVGElement, name: string): void {
  download(new Blob([standaloneSvg(drawing)], { type: 'image/svg+xml' }), `${name}.svg`);
}

/** The drawing rendered at twice its size, so it stays sharp on slides. */
export async function exportPng(drawing: SVGSVGElement, name: string): Promise<void> {
  const text = standaloneSvg(drawing);
  const img = new Image();
  img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(text)}`;
  await img.decode();
  const scale = 2;
  const canvas = document.createElement('canvas');
  canvas.width = drawing.width.baseVal.value * scale;
  canvas.height = drawing.height.baseVal.value * scale;
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('no 2D canvas');
  ctx.scale(scale, scale);
  ctx.drawImage(img, 0, 0);
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
  if (!blob) throw new Error('PNG encoding failed');
  download(blob, `${name}.png`);
}

/** Copies text; false when the browser refuses (no permission, insecure context). */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}
