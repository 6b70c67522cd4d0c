// The drawings' tooltip: hovering (or focusing) a slot, a struct field or padding shows its facts
// (type, offset, size, alignment, where it lives) from the element's data-tip, beside the pointer.
import type { Tip } from './draw/fields.js';

export function attachTooltip(area: HTMLElement): void {
  const tip = document.createElement('div');
  tip.id = 'tip';
  tip.className = 'tip';
  tip.setAttribute('role', 'tooltip');
  tip.hidden = true;
  document.body.append(tip);

  let shownFor: Element | null = null;
  const show = (el: Element, x: number, y: number) => {
    if (el !== shownFor) {
      const data = JSON.parse(el.getAttribute('data-tip') ?? '{}') as Tip;
      const dl = document.createElement('dl');
      for (const [k, v] of data.rows ?? [])
        dl.append(
          Object.assign(document.createElement('dt'), { textContent: k }),
          Object.assign(document.createElement('dd'), { textContent: v }),
        );
      tip.replaceChildren(Object.assign(document.createElement('strong'), { textContent: data.title ?? '' }), dl);
      shownFor = el;
    }
    tip.hidden = false;
    // Beside the pointer, kept inside the window.
    const w = tip.offsetWidth;
    const h = tip.offsetHeight;
    const left = x + 14 + w > innerWidth ? Math.max(4, x - 14 - w) : x + 14;
    const top = y + 16 + h > innerHeight ? Math.max(4, y - 10 - h) : y + 16;
    tip.style.left = `${left}px`;
    tip.style.top = `${top}px`;
  };
  const hide = () => {
    tip.hidden = true;
    shownFor = null;
  };
  const target = (e: Event) => (e.target as Element | null)?.closest?.('[data-tip]') ?? null;

  area.addEventListener('pointermove', (e) => {
    const el = target(e);
    if (el) show(el, e.clientX, e.clientY);
    else hide();
  });
  area.addEventListener('pointerleave', hide);
  // Keyboard: the focused slot's tip sits under the slot.
  area.addEventListener('focusin', (e) => {
    const el = target(e);
    if (!el) return;
    const r = el.getBoundingClientRect();
    show(el, r.left, r.bottom);
  });
  area.addEventListener('focusout', hide);
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') hide();
  });
}
