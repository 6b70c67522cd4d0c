// The list of diagnostics under the editor, as a compiler prints them (`file:line:col: error: message
// [code]`): each one with a place is a button that opens its file and moves the editor to it.
import type { ShownDiagnostic } from './compile.js';

/** The text of one entry: where, what, and the targets reporting it when not all do. */
export function problemText(d: ShownDiagnostic): string {
  const where = d.file === undefined ? '' : `${d.file}:${d.line}:${d.col}: `;
  const targets = d.targets ? ` (${d.targets.join(', ')})` : '';
  return `${where}${d.diagnostic.severity}: ${d.diagnostic.message} [${d.diagnostic.code}]${targets}`;
}

export function showProblems(
  list: HTMLElement,
  problems: readonly ShownDiagnostic[],
  pick: (d: ShownDiagnostic) => void,
): void {
  list.replaceChildren();
  for (const d of problems) {
    const li = document.createElement('li');
    li.className = d.diagnostic.severity;
    li.dataset.code = d.diagnostic.code;
    if (d.file === undefined) {
      li.textContent = problemText(d);
    } else {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'problem';
      b.dataset.file = d.file;
      b.dataset.line = String(d.line);
      b.dataset.col = String(d.col);
      b.textContent = problemText(d);
      b.title = `Go to ${d.file}, line ${d.line}`;
      b.addEventListener('click', () => pick(d));
      li.append(b);
    }
    list.append(li);
  }
  list.hidden = problems.length === 0;
}
