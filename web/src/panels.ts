// One panel per chosen target: its options, its drawing (or table, or JSON) and its actions.
import { type DiffResult, FORMATS, TINYTC_FORMATS, type TargetName } from 'kernarg';
import { type TargetResult, diagnosticId } from './compile.js';
import { drawingOf } from './draw/model.js';
import { renderDrawing } from './draw/render.js';
import { copyText, exportPng, exportSvg } from './export.js';
import type { View } from './state.js';
import { optionValue, targetOptions, targetTitle } from './target-options.js';

export interface Panel {
  readonly target: TargetName;
  readonly root: HTMLElement;
  /**
   * `shared`: diagnostics every target reports (source errors, shown once in the editor); `format`: the Text view's
   * choice.
   */
  show(
    result: TargetResult,
    view: View,
    kernel: string,
    options: Readonly<Record<string, string>>,
    shared: ReadonlySet<string>,
    format: string | undefined,
  ): void;
}

/**
 * The target's text formats for a source language: every format of its record but the table and JSON
 * (views of their own), less those that print tinytc bodies when the source is OpenCL C.
 */
export function textFormats(target: TargetName, isIr: boolean): string[] {
  const tinytcOnly = TINYTC_FORMATS[target] ?? [];
  return (FORMATS[target] ?? []).filter((f) => f !== 'table' && f !== 'json' && (isIr || !tinytcOnly.includes(f)));
}

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<Record<string, string>> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) if (v !== undefined) e.setAttribute(k, v);
  e.append(...children);
  return e;
}

/** The diff's changes as a list: class, where, what, and why. */
function showChanges(box: HTMLElement, diff: DiffResult | undefined): void {
  box.hidden = diff === undefined;
  box.replaceChildren();
  if (!diff) return;
  const fact = (v: string | number | null) => (v === null ? '—' : String(v));
  box.append(
    el(
      'p',
      { class: 'diff-summary' },
      diff.changes.length === 0
        ? 'No ABI change from the old version.'
        : `Against the old version: ${diff.breaking} breaking, ${diff.compatible} compatible`,
    ),
  );
  const list = el('ul', {});
  for (const c of diff.changes) {
    const where = [c.kernel ?? '(module)', c.slot].filter(Boolean).join(' · ');
    const what = c.property ? `${c.property} ${fact(c.old)} → ${fact(c.new)}` : c.change.replace('-', ' ');
    list.append(
      el(
        'li',
        {
          class: c.class,
          'data-class': c.class,
          'data-kernel': c.kernel ?? '',
          'data-slot': c.slot ?? '',
          'data-change': c.change,
          'data-property': c.property ?? '',
        },
        el('strong', {}, c.class),
        ` ${where}: ${what}`,
        el('span', { class: 'reason' }, ` — ${c.reason}`),
      ),
    );
  }
  box.append(list);
}

export function createPanel(
  target: TargetName,
  onOption: (key: string, value: string) => void,
  onFormat: (format: string) => void,
): Panel {
  const id = `panel-${target}`;
  const title = el('h3', { id: `${id}-h` }, targetTitle(target));
  const summary = el('p', { class: 'summary' });
  const opts = el('div', { class: 'options' });
  const controls = new Map<string, HTMLSelectElement | HTMLInputElement>();
  for (const spec of targetOptions(target)) {
    const key = `${target}.${spec.key}`;
    if (spec.kind === 'flag') {
      const input = el('input', { type: 'checkbox', 'data-option': key });
      input.addEventListener('change', () => onOption(key, input.checked ? 'on' : 'off'));
      controls.set(key, input);
      opts.append(el('label', { class: 'flag', title: spec.help }, input, ` ${spec.label}`));
    } else {
      const select = el('select', { 'data-option': key });
      for (const c of spec.choices ?? []) select.append(el('option', { value: c.value }, c.label));
      select.addEventListener('change', () => onOption(key, select.value));
      controls.set(key, select);
      opts.append(el('label', { title: spec.help }, `${spec.label} `, select));
    }
  }
  // A target with many options (clspv's) folds them away, so its drawing sits beside the other
  // targets' at the same height; they open by themselves while one is off its default.
  const FOLD_OVER = 4;
  const optionsSummary = el('summary', {});
  const optionsFold = el('details', { class: 'options-fold' }, optionsSummary, opts);
  const optionsBox = () => (controls.size > FOLD_OVER ? optionsFold : opts);
  let foldTouched = false;
  optionsSummary.addEventListener('click', () => {
    foldTouched = true;
  });
  const changes = el('div', { class: 'changes', hidden: '' });
  const formatPick = el('select', { 'data-format-of': target, 'aria-label': `${targetTitle(target)} text format` });
  formatPick.addEventListener('change', () => onFormat(formatPick.value));
  const formatBar = el('label', { class: 'format', hidden: '' }, 'Format ', formatPick);
  const body = el('div', { class: 'view' });
  const status = el('output', { class: 'status' });
  const copy = el('button', { type: 'button', 'data-action': 'copy-json' }, 'Copy JSON');
  const svgButton = el('button', { type: 'button', 'data-action': 'export-svg' }, 'SVG');
  const pngButton = el('button', { type: 'button', 'data-action': 'export-png' }, 'PNG');
  const actions = el('div', { class: 'actions' }, copy, svgButton, pngButton, status);
  const root = el(
    'article',
    { class: 'panel', 'data-target': target, 'aria-labelledby': `${id}-h` },
    el('header', {}, title, summary),
    optionsBox(),
    changes,
    formatBar,
    body,
    actions,
  );

  let current: TargetResult | undefined;
  let kernelName = '';
  const drawing = () => body.querySelector<SVGSVGElement>('svg.drawing');
  const say = (text: string) => {
    status.textContent = text;
  };
  copy.addEventListener('click', async () => {
    if (!current?.json) return;
    say((await copyText(current.json)) ? 'JSON copied' : 'copy refused by the browser');
  });
  const fileName = () => `kernarg-${target}-${kernelName}`;
  svgButton.addEventListener('click', () => {
    const d = drawing();
    if (d) exportSvg(d, fileName());
  });
  pngButton.addEventListener('click', () => {
    const d = drawing();
    if (d) exportPng(d, fileName()).catch((e: unknown) => say(`PNG failed: ${String(e)}`));
  });

  return {
    target,
    root,
    show(result, view, kernel, options, shared, format) {
      current = result;
      for (const spec of targetOptions(target)) {
        const c = controls.get(`${target}.${spec.key}`)!;
        const v = optionValue(options, target, spec);
        if (c instanceof HTMLInputElement) c.checked = v === 'on';
        else c.value = v;
      }
      const changed = targetOptions(target).filter(
        (spec) => optionValue(options, target, spec) !== spec.default,
      ).length;
      optionsSummary.textContent = `${controls.size} options${changed > 0 ? `, ${changed} changed` : ''}`;
      if (!foldTouched && changed > 0) optionsFold.open = true;
      say('');
      showChanges(changes, result.diff);
      body.replaceChildren();
      formatBar.hidden = true;
      const plan = result.plan;
      const k = plan?.kernels.find((x) => x.name === kernel) ?? plan?.kernels[0];
      kernelName = k?.name ?? '';
      copy.disabled = !result.json;
      svgButton.disabled = pngButton.disabled = !(plan && k && view === 'drawing');
      if (!plan || !k) {
        summary.textContent = plan ? 'no kernels' : 'not lowered';
        const errors = result.diagnostics.filter((d) => d.severity === 'error');
        if (!plan && errors.length > 0 && errors.every((d) => shared.has(diagnosticId(d)))) {
          body.append(
            el(
              'p',
              {},
              `Nothing to draw: the source has ${errors.length === 1 ? 'an error' : `${errors.length} errors`}, ` +
                `listed under the editor.`,
            ),
          );
          return;
        }
        const list = el('ul', { class: 'refusal' });
        for (const d of errors) {
          const at = d.span ? `${d.span.file.path}:${d.span.file.lineCol(d.span.start).line}: ` : '';
          list.append(el('li', {}, `${at}${d.message} [${d.code}]`));
        }
        body.append(el('p', {}, plan ? 'The source declares no kernel.' : 'This target refuses the source:'), list);
        return;
      }
      const d = drawingOf(target, plan, k);
      summary.textContent = `${k.name}: ${d.summary}`;
      switch (view) {
        case 'drawing': {
          const svgEl = renderDrawing(d);
          // Two-source mode: the slots a breaking change touches, outlined in the new drawing.
          for (const c of result.diff?.changes ?? []) {
            if (c.class !== 'breaking' || c.kernel !== k.name || c.slot === null) continue;
            for (const s of svgEl.querySelectorAll<SVGGElement>('.slot[data-slot]'))
              if (s.dataset.name === c.slot) s.classList.add('breaking');
          }
          body.append(svgEl);
          break;
        }
        case 'table':
          body.append(
            el(
              'pre',
              { class: 'text', tabindex: '0', 'aria-label': `${target} table` },
              result.render('table').output ?? '',
            ),
          );
          break;
        case 'json':
          body.append(el('pre', { class: 'text', tabindex: '0', 'aria-label': `${target} JSON` }, result.json ?? ''));
          break;
        case 'text':
          showText(format);
          break;
        default:
          view satisfies never;
      }
      // The Text view: the core's other formats of this target (LLVM IR, CLRX, the descriptor map, ...).
      function showText(wanted: string | undefined): void {
        const formats = textFormats(target, result.isIr);
        if (formats.length === 0) {
          body.append(
            el('p', { class: 'summary' }, `${targetTitle(target)} has no text format beyond the table and JSON.`),
          );
          return;
        }
        const f = wanted !== undefined && formats.includes(wanted) ? wanted : formats[0];
        formatPick.replaceChildren(...formats.map((x) => el('option', { value: x }, x)));
        formatPick.value = f;
        formatBar.hidden = false;
        const out = result.render(f);
        if (out.output !== undefined) {
          body.append(
            el('pre', { class: 'text', tabindex: '0', 'aria-label': `${target} ${f}`, 'data-format': f }, out.output),
          );
          return;
        }
        if (out.binary) {
          body.append(
            el(
              'p',
              { class: 'summary', 'data-format': f },
              `${f} is binary (${out.binary.length} bytes): the command line writes it with -o.`,
            ),
          );
          return;
        }
        const list = el('ul', { class: 'refusal', 'data-format': f });
        for (const d of out.diagnostics.filter((x) => x.severity === 'error'))
          list.append(el('li', {}, `${d.message} [${d.code}]`));
        body.append(el('p', {}, `No ${f} for this source:`), list);
      }
    },
  };
}
