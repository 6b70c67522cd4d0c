// The page: wires the source controls, the editor, the target panels, linking and the URL.
import type { TargetName } from 'kernarg';
import { type Compiled, compile, diagnosticId, oldFile } from './compile.js';
import { argAt, createEditor } from './editor.js';
import { EXAMPLES, type Example } from './examples.js';
import { copyText } from './export.js';
import { createFileBar } from './files.js';
import { isKernelSource } from './paths.js';
import { type Panel, createPanel } from './panels.js';
import { showProblems } from './problems.js';
import { attachTooltip } from './tooltip.js';
import { type AppState, type HeaderFile, type View, decodeState, defaultState, encodeState } from './state.js';
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
  const messages = $<HTMLUListElement>('messages');
  const licence = $<HTMLParagraphElement>('licence');

  // Examples from real projects sit in a group whose label names the project and its licence.
  example.append(new Option('(your own)', ''));
  for (const e of EXAMPLES) {
    const option = new Option(e.title, e.id);
    if (!e.group) {
      example.append(option);
      continue;
    }
    const group =
      [...example.querySelectorAll('optgroup')].find((g) => g.label === e.group) ??
      example.appendChild(Object.assign(document.createElement('optgroup'), { label: e.group }));
    group.append(option);
  }
  const sameFiles = (e: Example) =>
    e.source === state.source &&
    e.file === state.file &&
    (e.headers ?? []).length === state.headers.length &&
    (e.headers ?? []).every((h, i) => h.path === state.headers[i].path && h.text === state.headers[i].text);
  /** A file's text: the main file's, or a header's. */
  const textOf = (path: string): string =>
    path === state.file ? state.source : (state.headers.find((h) => h.path === path)?.text ?? '');
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

  const editor = createEditor(
    $('editor'),
    state.source,
    state.file,
    (text, file) => {
      // Editing the source goes back from a binary's plan to lowering the source.
      state.binary = undefined;
      if (file === state.file) state.source = text;
      else {
        const h = state.headers.find((x) => x.path === file);
        if (h) h.text = text;
      }
      schedule();
    },
    (pos) => {
      const a = argAt(mainArgs(), pos);
      setActive(a ? a.key : null);
    },
  );
  /** The kernel's arguments while the editor shows the main file (they are spans in it), else none. */
  const mainArgs = () => (editor.file === state.file ? compiled.args.get(currentKernel()) : undefined);
  // Hovering an argument in the source highlights it in every drawing; elsewhere the cursor's does.
  const cursorKey = (): number | null =>
    editor.view.hasFocus ? (argAt(mainArgs(), editor.view.state.selection.main.head)?.key ?? null) : null;
  editor.view.contentDOM.addEventListener('mousemove', (e) => {
    const pos = editor.view.posAtCoords({ x: e.clientX, y: e.clientY });
    const a = pos === null ? undefined : argAt(mainArgs(), pos);
    setActive(a ? a.key : cursorKey());
  });
  editor.view.contentDOM.addEventListener('mouseleave', () => setActive(cursorKey()));

  // Two-source mode: the old version in its own editor above the new one.
  const compare = $<HTMLInputElement>('compare');
  const oldWrap = $<HTMLDivElement>('old-wrap');
  // The files: tabs over the editor; the main file is compiled, the others are what it includes.
  const files = createFileBar($('files'), $('drop'), $('files-status'), {
    show(path) {
      editor.open(path, textOf(path));
      render();
    },
    setMain(path) {
      const at = state.headers.findIndex((h) => h.path === path);
      if (at < 0 || !isKernelSource(path)) return;
      const next = state.headers[at];
      state.headers[at] = { path: state.file, text: state.source };
      state.file = next.path;
      state.source = next.text;
      state.kernel = '';
      editor.open(state.file, state.source);
      oldEditor.setText(state.old, oldFile(state.file));
      update();
    },
    add(path) {
      if (path !== state.file && !state.headers.some((h) => h.path === path)) state.headers.push({ path, text: '' });
      editor.open(path, textOf(path));
      update();
    },
    remove(path) {
      state.headers = state.headers.filter((h) => h.path !== path);
      editor.forget(path);
      if (editor.file === path) editor.open(state.file, state.source);
      update();
    },
    opened(list) {
      // Files holding a kernel source start over with those files; headers alone join the open ones.
      const sources = list.filter((f) => isKernelSource(f.path));
      if (sources.length > 0) {
        const main = sources[0];
        state.file = main.path;
        state.source = main.text;
        state.headers = list.filter((f) => f !== main).map((f) => ({ ...f }));
        state.kernel = '';
        editor.setText(state.source, state.file);
        state.old = state.source;
        oldEditor.setText(state.old, oldFile(state.file));
      } else {
        for (const f of list) {
          const h = state.headers.find((x) => x.path === f.path);
          if (h) h.text = f.text;
          else state.headers.push({ ...f });
          editor.forget(f.path);
        }
        editor.open(list[0].path, list[0].text);
      }
      state.binary = undefined;
      clearTimeout(timer);
      update();
    },
    binary(path, bytes) {
      // The binary's plan is its target's: that target's panel alone shows it.
      state.binary = { path, bytes };
      const target = compile(state).results.find((r) => r.plan)?.target;
      if (target) state.targets = [target];
      state.kernel = '';
      rebuildPanels();
      clearTimeout(timer);
      update();
      files.say(
        target
          ? `showing the plan read from ${path} (${target}); edit the source or pick an example to lower it again`
          : '',
      );
    },
  });
  /** Moves the editor to a diagnostic: its file's tab, its line in view, its span selected. */
  const goTo = (file: string, from: number, to: number) => {
    if (editor.file !== file) {
      editor.open(file, textOf(file));
      render();
    }
    editor.select(from, to);
  };

  const oldEditor = createEditor(
    $('old-editor'),
    state.old,
    oldFile(state.file),
    (text) => {
      state.old = text;
      schedule();
    },
    () => undefined,
    'Old kernel source',
  );
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
    panels = state.targets.map((t) =>
      createPanel(
        t,
        (key, value) => {
          state.options[key] = value;
          update();
        },
        (format) => {
          state.formats[t] = format;
          update();
        },
      ),
    );
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
    const spans = (mainArgs() ?? []).filter((a) => a.key === key);
    editor.mark(spans);
  }

  function render(): void {
    const shownExample = EXAMPLES.find(sameFiles);
    example.value = shownExample?.id ?? '';
    licence.hidden = !shownExample?.licence;
    licence.textContent = shownExample?.licence ?? '';
    // The editor may show a file that is gone (a link or an example replaced the files).
    if (editor.file !== state.file && !state.headers.some((h) => h.path === editor.file))
      editor.open(state.file, state.source);
    language.value = state.file.endsWith('.ir') ? 'ir' : 'cl';
    compare.checked = state.compare;
    oldWrap.hidden = !state.compare;
    oldEditor.showDiagnostics(state.compare ? compiled.oldDiagnostics : []);
    std.value = state.std;
    if (defines.value !== state.defines) defines.value = state.defines;
    for (const box of picker.querySelectorAll('input')) box.checked = state.targets.includes(box.value as TargetName);
    for (const b of document.querySelectorAll<HTMLButtonElement>('[data-view]'))
      b.setAttribute('aria-checked', String(b.dataset.view === state.view));
    const k = currentKernel();
    kernel.replaceChildren(...compiled.kernels.map((n) => new Option(n, n)));
    kernel.value = k;
    kernel.disabled = compiled.kernels.length < 2;
    const shared = new Set(
      compiled.diagnostics
        .filter((d) => d.targets === undefined && compiled.results.length > 1)
        .map((d) => diagnosticId(d.diagnostic)),
    );
    for (const p of panels) {
      const r = compiled.results.find((x) => x.target === p.target);
      if (r) p.show(r, state.view, k, state.options, shared, state.formats[p.target]);
    }
    editor.showDiagnostics(compiled.diagnostics);
    const errors = new Map<string, number>();
    for (const d of compiled.diagnostics)
      if (d.file !== undefined && d.diagnostic.severity === 'error') errors.set(d.file, (errors.get(d.file) ?? 0) + 1);
    files.render(state.file, state.headers, editor.file, errors);
    showProblems(messages, compiled.diagnostics, (d) => goTo(d.file!, d.from!, d.to!));
    if (state.targets.length === 0)
      panelsEl.replaceChildren(Object.assign(document.createElement('p'), { textContent: 'Pick a target above.' }));
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
    state.binary = undefined;
    state.file = ex.file;
    state.source = ex.source;
    state.headers = (ex.headers ?? []).map((h): HeaderFile => ({ ...h }));
    state.kernel = '';
    editor.setText(ex.source, ex.file);
    state.old = ex.source;
    oldEditor.setText(ex.source, oldFile(ex.file));
    clearTimeout(timer);
    update();
  });
  language.addEventListener('change', () => {
    state.file = state.file.replace(/\.(cl|ir)$/, `.${language.value}`);
    state.headers = state.headers.filter((h) => h.path !== state.file);
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
    if (a) goTo(state.file, a.from, a.to);
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

  attachTooltip(panelsEl);
  rebuildPanels();
  update();
  document.body.dataset.ready = 'true';
}

start().catch((e: unknown) => {
  document.body.textContent = `kernarg could not start: ${String(e)}`;
});
