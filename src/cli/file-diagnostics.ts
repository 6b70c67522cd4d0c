// Diagnostics about the command line's files, in the form every exit-1 message has:
// `file: error: message [KAnnnn]` for a file as a whole (one that cannot be read or written),
// `file:line:col: error: message [KAnnnn]` with a code frame for a place in it (an args file).
import { type Diagnostic, DiagnosticBag, type RelatedInformation } from '../diagnostics/diagnostic.js';
import { escapeControls, formatDiagnostics } from '../diagnostics/format.js';
import type { Message } from '../diagnostics/messages.js';
import { SourceFile, span } from '../diagnostics/source.js';

/** `path: error: message [code]`, one line. */
export function fileDiagnostic(path: string, message: Message, args: readonly (string | number)[]): string {
  const d = new DiagnosticBag().report(message, undefined, args);
  return `${escapeControls(path)}: ${d.severity}: ${escapeControls(d.message)} [${d.code}]\n`;
}

/** One diagnostic at a place in a file's text (offsets), or at the file as a whole when the place is unknown. */
export interface TextDiagnostic {
  readonly message: Message;
  readonly args: readonly (string | number)[];
  readonly place?: { readonly start: number; readonly end: number };
}

/** Diagnostics at places of one file's text, formatted as the compiler's are (code frames, a count at the end). */
export function textDiagnostics(path: string, text: string, items: readonly TextDiagnostic[]): string {
  const file = new SourceFile(path, text);
  const bag = new DiagnosticBag(Infinity);
  const placed: Diagnostic[] = [];
  let whole = '';
  for (const item of items) {
    if (item.place)
      placed.push(
        bag.report(item.message, span(file, item.place.start, item.place.end), item.args, [] as RelatedInformation[]),
      );
    else whole += fileDiagnostic(path, item.message, item.args);
  }
  return whole + (placed.length ? formatDiagnostics(placed) : '');
}
