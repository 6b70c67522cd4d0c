// The page: wires the source controls, the editor, the target panels, linking and the URL.
import type { TargetName } from 'kernarg';
import { type Compiled, compile, diagnosticId, oldFile } from './compile.js';
import { argAt, createEditor } from './editor.js';
import { EXAMPLES } from './examples.js';
import { copyText } from './export.js';
import { type Panel, createPanel } from './panels.js';
import { type AppState, type View, decodeState, defaultState, encodeState } from './state.js';
import { ALL_TARGETS, CL_VERSIONS, targetTitle } from './target-options.js';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

async function start(): Promise<void> {
  const state: AppState = (await decodeState(location.hash)) ?? defaultState();
  let compiled: Compiled = compile(state);
  let activeKey: number | null = null;

  const example = $<HTMLSelectElement>('example');
  const language = $<HTMLSelectElement>('language');
  const std = $<HTMLSelectElement>('std');
  const defines = $<HTMLInputElement>('defines');
  const kernel = $<HTMLSelectElement>('kernel');
  const picker = $<HTMLFieldSetElement>('target-picker');
  const panelsEl = $<HTMLDivElement>('panels');
  const messages = $<HTMLDivElement>('messages');

  example.append(new Option('(your own)', ''), ...EXAMPLES.map((e) => new Option(e.title, e.id)));
  std.append(...CL_VERSIONS.map((v) => new Option(v.replace('CL', ''), v)));
  for (const t of ALL_TARGETS) {
    const box = document.createElement('input');
    box.type = 'checkbox';
    box.value = t;
    box.id = `pick-${t}`;
    const label = document.createElement('label');
    label.htmlFor = box.id;
    label.textContent = ` ${targetTitle(t)}`;
    label.prepend(box);
    picker.append(label);
    box.addEventListener('change', () => {
      state.targets = ALL_TARGETS.filter((x) => (x === t ? box.checked : state.targets.includes(x)));
      rebuildPanels();
      update();
    });
  }

  const editor = createEditor($('editor'), state.source, state.file, (text) => {
    state.source = text;
    schedule();
  }, (pos) => {
    const a = argAt(compiled.args.get(currentKernel()), pos);
    setActive(a ? a.key : null);
  });
  // Hovering an argument in the source highlights it in every drawing; elsewhere the cursor's does.
  const cursorKey = (): number | null =>
    editor.view.hasFocus ? (argAt(compiled.args.get(currentKernel()), editor.view.state.selection.main.head)?.key ?? null) : null;
  editor.view.contentDOM.addEventListener('mousemove', (e) => {
    const pos = editor.view.posAtCoords({ x: e.clientX, y: e.clientY });
    const a = pos === null ? undefined : argAt(compiled.args.get(currentKernel()), pos);
    setActive(a ? a.key : cursorKey());
  });
  editor.view.contentDOM.addEventListener('mouseleave', () => setActive(cursorKey()));

  // Two-source mode: the old version in its own editor above the new one.
  const compare = $<HTMLInputElement>('compare');
  const oldWrap = $<HTMLDivElement>('old-wrap');
  const oldEditor = createEditor($('old-editor'), state.old, oldFile(state.file), (text) => {
    state.old = text;
    schedule();
  }, () => undefined, 'Old kernel source');
  compare.addEventListener('change', () => {
    state.compare = compare.checked;
    if (state.compare && state.old === '') {
      state.old = state.source;
      oldEditor.setText(state.old, oldFile(state.file));
    }
    update();
  });

  let panels: Panel[] = [];
  function rebuildPanels(): void {
    panels = state.targets.map((t) => createPanel(t, (key, value) => {
      state.options[key] = value;
      update();
    }));
    panelsEl.replaceChildren(...panels.map((p) => p.root));
  }

  function currentKernel(): string {
    return compiled.kernels.includes(state.kernel) ? state.kernel : (compiled.kernels[0] ?? '');
  }

  function setActive(key: number | null): void {
    activeKey = key;
    document.body.classList.toggle('linking', key !== null);
    for (const e of panelsEl.querySelectorAll('.slot.hl')) e.classList.remove('hl');
    if (key !== null) for (const e of panelsEl.querySelectorAll(`.slot[data-key="${key}"]`)) e.classList.add('hl');
    const spans = (compiled.args.get(currentKernel()) ?? []).filter((a) => a.key === key);
    editor.mark(spans);
  }

  function render(): void {
    example.value = EXAMPLES.find((e) => e.source === state.source && e.file === state.file)?.id ?? '';
    language.value = state.file.endsWith('.ir') ? 'ir' : 'cl';
    compare.checked = state.compare;
    oldWrap.hidden = !state.compare;
    oldEditor.showDiagnostics(state.compare ? compiled.oldDiagnostics : []);
    std.value = state.std;
    if (defines.value !== state.defines) defines.value = state.defines;
    for (const box of picker.querySelectorAll('input')) box.checked = state.targets.includes(box.value as TargetName);
    for (const b of document.querySelectorAll<HTMLButtonElement>('[data-view]')) b.setAttribute('aria-checked', String(b.dataset.view === state.view));
    const k = currentKernel();
    kernel.replaceChildren(...compiled.kernels.map((n) => new Option(n, n)));
    kernel.value = k;
    kernel.disabled = compiled.kernels.length < 2;
    const shared = new Set(compiled.diagnostics.filter((d) => d.targets === undefined && compiled.results.length > 1).map((d) => diagnosticId(d.diagnostic)));
    for (const p of panels) {
      const r = compiled.results.find((x) => x.target === p.target);
      if (r) p.show(r, state.view, k, state.options, shared);
    }
    editor.showDiagnostics(compiled.diagnostics);
    const unplaced = compiled.diagnostics.filter((d) => d.from === undefined);
    messages.replaceChildren(...unplaced.map((d) => {
      const p = document.createElement('p');
      p.className = d.diagnostic.severity;
      p.textContent = `${d.diagnostic.severity}: ${d.diagnostic.message} [${d.diagnostic.code}]${d.targets ? ` (${d.targets.join(', ')})` : ''}`;
      return p;
    }));
    if (state.targets.length === 0) panelsEl.replaceChildren(Object.assign(document.createElement('p'), { textContent: 'Pick a target above.' }));
    setActive(activeKey);
  }

  let urlWrite = Promise.resolve();
  function update(): void {
    delete document.body.dataset.pending;
    compiled = compile(state);
    render();
    // The URL always holds the current source and options: the address bar is the share link.
    urlWrite = urlWrite.then(async () => {
      history.replaceState(null, '', `#${await encodeState(state)}`);
    });
  }

  let timer: ReturnType<typeof setTimeout> | undefined;
  function schedule(): void {
    clearTimeout(timer);
    document.body.dataset.pending = 'true';
    timer = setTimeout(update, 120);
  }

  example.addEventListener('change', () => {
    const ex = EXAMPLES.find((e) => e.id === example.value);
    if (!ex) return;
    state.file = ex.file;
    state.source = ex.source;
    state.kernel = '';
    editor.setText(ex.source, ex.file);
    state.old = ex.source;
    oldEditor.setText(ex.source, oldFile(ex.file));
    clearTimeout(timer);
    update();
  });
  language.addEventListener('change', () => {
    state.file = state.file.replace(/\.(cl|ir)$/, `.${language.value}`);
    editor.setText(state.source, state.file);
    oldEditor.setText(state.old, oldFile(state.file));
    clearTimeout(timer);
    update();
  });
  std.addEventListener('change', () => {
    state.std = std.value as AppState['std'];
    update();
  });
  defines.addEventListener('input', () => {
    state.defines = defines.value;
    schedule();
  });
  kernel.addEventListener('change', () => {
    state.kernel = kernel.value;
    update();
  });
  for (const b of document.querySelectorAll<HTMLButtonElement>('[data-view]')) {
    b.addEventListener('click', () => {
      state.view = b.dataset.view as View;
      update();
    });
  }
  $('share').addEventListener('click', async () => {
    await urlWrite;
    const url = `${location.origin}${location.pathname}#${await encodeState(state)}`;
    $('share-status').textContent = (await copyText(url)) ? 'link copied' : url;
  });

  // Linking from the drawings: hover or focus a slot; click or Enter selects its argument's source.
  panelsEl.addEventListener('pointerover', (e) => {
    const slot = (e.target as Element).closest<SVGGElement>('.slot');
    if (slot) setActive(slot.dataset.key === undefined ? null : Number(slot.dataset.key));
  });
  panelsEl.addEventListener('focusin', (e) => {
    const slot = (e.target as Element).closest<SVGGElement>('.slot');
    if (slot) setActive(slot.dataset.key === undefined ? null : Number(slot.dataset.key));
  });
  // Leaving the drawings (pointer or focus) ends the highlight, unless a slot still has focus.
  const slotFocused = () => Boolean(document.activeElement?.closest('.slot'));
  panelsEl.addEventListener('pointerleave', () => {
    if (!slotFocused()) setActive(null);
  });
  panelsEl.addEventListener('focusout', (e) => {
    const to = e.relatedTarget as Element | null;
    if (!to?.closest('.slot')) setActive(null);
  });
  const selectSource = (slot: SVGGElement) => {
    const a = (compiled.args.get(currentKernel()) ?? []).find((x) => String(x.key) === slot.dataset.key);
    if (a) editor.select(a.from, a.to);
  };
  panelsEl.addEventListener('click', (e) => {
    const slot = (e.target as Element).closest<SVGGElement>('.slot');
    if (slot) selectSource(slot);
  });
  panelsEl.addEventListener('keydown', (e) => {
    const slot = (e.target as Element).closest<SVGGElement>('.slot');
    if (!slot) return;
    const all = [...(slot.ownerSVGElement?.querySelectorAll<SVGGElement>('.slot') ?? [])];
    const i = all.indexOf(slot);
    let next: SVGGElement | undefined;
    if (e.key === 'ArrowRight' || e.key === 'ArrowDown') next = all[Math.min(i + 1, all.length - 1)];
    else if (e.key === 'ArrowLeft' || e.key === 'ArrowUp') next = all[Math.max(i - 1, 0)];
    else if (e.key === 'Home') next = all[0];
    else if (e.key === 'End') next = all[all.length - 1];
    else if (e.key === 'Enter' || e.key === ' ') {
      selectSource(slot);
      e.preventDefault();
      return;
    } else return;
    e.preventDefault();
    // Roving tab stop: the drawing keeps one tab stop, on the slot last visited.
    for (const s of all) s.setAttribute('tabindex', '-1');
    next.setAttribute('tabindex', '0');
    next.focus();
  });

  rebuildPanels();
  update();
  document.body.dataset.ready = 'true';
}

start().catch((e: unknown) => {
  document.body.textContent = `kernarg could not start: ${String(e)}`;
});
