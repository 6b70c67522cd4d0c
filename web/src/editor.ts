// The source editor (CodeMirror 6): OpenCL C or tinytc highlighting, diagnostics shown inline
// under their line, and the highlighted argument's span marked.
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { c } from '@codemirror/legacy-modes/mode/clike';
import { HighlightStyle, StreamLanguage, bracketMatching, syntaxHighlighting } from '@codemirror/language';
import { EditorState, type Extension, type Range, RangeSetBuilder, StateEffect, StateField } from '@codemirror/state';
import {
  Decoration,
  type DecorationSet,
  EditorView,
  WidgetType,
  drawSelection,
  highlightActiveLine,
  keymap,
  lineNumbers,
} from '@codemirror/view';
import { tags } from '@lezer/highlight';
import type { ShownDiagnostic, SourceArg } from './compile.js';

const OPENCL_WORDS = new Set([
  'kernel',
  '__kernel',
  'global',
  '__global',
  'local',
  '__local',
  'constant',
  '__constant',
  'private',
  '__private',
  'generic',
  '__generic',
  'read_only',
  '__read_only',
  'write_only',
  '__write_only',
  'read_write',
  '__read_write',
  'pipe',
  '__attribute__',
  'typedef',
]);
const OPENCL_TYPE =
  /^(?:(?:u?(?:char|short|int|long)|uchar|ushort|uint|ulong|float|double|half|bool)(?:2|3|4|8|16)?|size_t|ptrdiff_t|intptr_t|uintptr_t|image[123]d(?:_array)?(?:_buffer)?(?:_depth|_msaa|_msaa_depth)?_t|sampler_t|event_t|queue_t|clk_event_t|reserve_id_t|ndrange_t)$/;

/** OpenCL C: CodeMirror's C stream mode (far smaller than the C++ grammar) taught OpenCL's words. */
const openclLanguage = StreamLanguage.define({
  ...c,
  name: 'opencl',
  token(stream, state) {
    const style = c.token(stream, state);
    const word = stream.current();
    if (OPENCL_WORDS.has(word)) return 'keyword';
    if (OPENCL_TYPE.test(word)) return 'type';
    return style;
  },
});

/** tinytc IR tokens: `;` comments, `%values`, `@functions`, types, keywords, numbers. */
const tinytcLanguage = StreamLanguage.define<null>({
  name: 'tinytc',
  token(stream) {
    if (stream.eatSpace()) return null;
    if (stream.match(/^;.*/)) return 'comment';
    if (stream.match(/^[%@][\w.]+/)) return stream.current().startsWith('@') ? 'function' : 'variableName';
    if (stream.match(/^-?\d+(\.\d+)?(e[+-]?\d+)?/i)) return 'number';
    if (stream.match(/^(memref|group|strided|offset|i1|i8|i16|i32|i64|index|f32|f64|c32|c64)\b/)) return 'typeName';
    if (stream.match(/^[a-z_][\w.]*/)) return 'keyword';
    stream.next();
    return null;
  },
});

const highlight = HighlightStyle.define([
  { tag: tags.comment, class: 'tok-comment' },
  { tag: [tags.keyword, tags.modifier, tags.processingInstruction], class: 'tok-keyword' },
  { tag: [tags.typeName, tags.standard(tags.typeName)], class: 'tok-type' },
  { tag: [tags.number, tags.string, tags.bool], class: 'tok-literal' },
  { tag: [tags.function(tags.variableName), tags.function(tags.definition(tags.variableName))], class: 'tok-function' },
]);

class DiagnosticWidget extends WidgetType {
  constructor(
    readonly d: ShownDiagnostic,
    readonly line: number,
  ) {
    super();
  }
  override eq(o: DiagnosticWidget): boolean {
    return o.d === this.d && o.line === this.line;
  }
  toDOM(): HTMLElement {
    const { diagnostic: d, targets } = this.d;
    const div = document.createElement('div');
    div.className = `cm-inline-diag ${d.severity}`;
    div.setAttribute('role', 'note');
    div.dataset.line = String(this.line);
    div.dataset.code = d.code;
    const where = targets ? ` (${targets.join(', ')})` : '';
    div.textContent = `${d.severity}: ${d.message} [${d.code}]${where}`;
    return div;
  }
}

const setDiagnostics = StateEffect.define<readonly ShownDiagnostic[]>();
const setMarked = StateEffect.define<readonly { from: number; to: number }[]>();

function diagnosticDecorations(state: EditorState, list: readonly ShownDiagnostic[]): DecorationSet {
  const ranges: Range<Decoration>[] = [];
  const len = state.doc.length;
  for (const d of list) {
    if (d.from === undefined) continue;
    const from = Math.min(d.from, len);
    const to = Math.min(Math.max(d.to ?? from, from), len);
    const line = state.doc.lineAt(from);
    if (to > from) ranges.push(Decoration.mark({ class: `cm-diag-range ${d.diagnostic.severity}` }).range(from, to));
    ranges.push(
      Decoration.widget({ widget: new DiagnosticWidget(d, line.number), block: true, side: 1 }).range(line.to),
    );
  }
  return Decoration.set(ranges, true);
}

const diagnosticsField = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(value, tr) {
    for (const e of tr.effects) if (e.is(setDiagnostics)) return diagnosticDecorations(tr.state, e.value);
    return value.map(tr.changes);
  },
  provide: (f) => EditorView.decorations.from(f),
});

const markedField = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(value, tr) {
    for (const e of tr.effects) {
      if (!e.is(setMarked)) continue;
      const b = new RangeSetBuilder<Decoration>();
      const len = tr.state.doc.length;
      for (const r of [...e.value].sort((x, y) => x.from - y.from))
        if (r.to <= len && r.to > r.from) b.add(r.from, r.to, Decoration.mark({ class: 'cm-arg-marked' }));
      return b.finish();
    }
    return value.map(tr.changes);
  },
  provide: (f) => EditorView.decorations.from(f),
});

export interface SourceEditor {
  readonly view: EditorView;
  /** The file the editor shows now. */
  readonly file: string;
  /** Starts over with one file (an example, a language change): every other file's editing state is dropped. */
  setText(text: string, file: string): void;
  /**
   * Shows another file, each keeping its own undo history, selection and scroll position while it has the same text.
   */
  open(file: string, text: string): void;
  /** Drops a file's kept editing state (the file was removed or renamed). */
  forget(file: string): void;
  showDiagnostics(list: readonly ShownDiagnostic[]): void;
  mark(ranges: readonly { from: number; to: number }[]): void;
  /** Selects a range and moves focus to the editor ("go to the source"). */
  select(from: number, to: number): void;
}

function languageFor(file: string): Extension {
  return file.endsWith('.ir') ? tinytcLanguage : openclLanguage;
}

/** `onChange` gets the shown file's name with its new text. */
export function createEditor(
  parent: HTMLElement,
  text: string,
  file: string,
  onChange: (text: string, file: string) => void,
  onCursor: (pos: number) => void,
  label = 'Kernel source',
): SourceEditor {
  let current = file;
  const kept = new Map<string, EditorState>();
  const stateFor = (doc: string, name: string) =>
    EditorState.create({
      doc,
      extensions: [
        lineNumbers(),
        EditorView.lineWrapping,
        history(),
        drawSelection(),
        highlightActiveLine(),
        bracketMatching(),
        keymap.of([...defaultKeymap, ...historyKeymap]),
        languageFor(name),
        syntaxHighlighting(highlight),
        diagnosticsField,
        markedField,
        EditorView.contentAttributes.of({ 'aria-label': label, 'aria-multiline': 'true' }),
        EditorView.updateListener.of((u) => {
          if (u.docChanged) onChange(u.state.doc.toString(), current);
          if (u.selectionSet || u.docChanged) onCursor(u.state.selection.main.head);
        }),
      ],
    });
  const view = new EditorView({ parent, state: stateFor(text, file) });
  // The file's name for screen readers: which file the editor holds.
  const named = () => view.dom.setAttribute('data-file', current);
  named();
  return {
    view,
    get file() {
      return current;
    },
    setText(t, f) {
      kept.clear();
      current = f;
      view.setState(stateFor(t, f));
      named();
    },
    open(f, t) {
      if (f === current && view.state.doc.toString() === t) return;
      kept.set(current, view.state);
      const old = kept.get(f);
      current = f;
      view.setState(old && old.doc.toString() === t ? old : stateFor(t, f));
      named();
    },
    forget(f) {
      kept.delete(f);
    },
    showDiagnostics(list) {
      view.dispatch({ effects: setDiagnostics.of(list.filter((d) => d.file === current)) });
    },
    mark(ranges) {
      view.dispatch({ effects: setMarked.of(ranges) });
    },
    select(from, to) {
      // Centred: the line and the message under it both show, whatever was scrolled before.
      view.dispatch({
        selection: { anchor: from, head: to },
        effects: EditorView.scrollIntoView(from, { y: 'center' }),
      });
      view.focus();
    },
  };
}

/** The argument whose declaration holds a source position. */
export function argAt(args: readonly SourceArg[] | undefined, pos: number): SourceArg | undefined {
  return args?.find((a) => pos >= a.from && pos <= a.to);
}
