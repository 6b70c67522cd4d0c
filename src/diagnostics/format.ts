import type { Diagnostic } from './diagnostic.js';
import { type Span, describeLocation } from './source.js';

export interface FormatOptions {
  /** Wrap severities in ANSI colours. */
  color?: boolean;
}

const COLORS = {
  error: '\x1b[1;31m',
  warning: '\x1b[1;35m',
  note: '\x1b[1;36m',
  bold: '\x1b[1m',
  reset: '\x1b[0m',
  green: '\x1b[1;32m',
};

/** Columns of a source line shown around the caret; longer lines are cut to this window with '...' at the cuts. */
const FRAME_WIDTH = 240;
/** Characters of one message shown (messages quote user text, which may be any length). */
const MESSAGE_LIMIT = 1000;
/** Characters of diagnostics printed per run; what passes it is counted, not printed. */
const OUTPUT_LIMIT = 1 << 20;

/**
 * Control characters (C0, DEL, C1) and lone surrogates written as clang writes them, `<U+001B>`,
 * so no byte from a source, a file name or an #include name reaches the terminal as a command.
 */
export function escapeControls(text: string): string {
  return text.replace(
    /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
    (c) => `<U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}>`,
  );
}

function clip(text: string, limit: number): string {
  return text.length > limit ? `${text.slice(0, limit)}...` : text;
}

const location = (s: Span): string => escapeControls(describeLocation(s));

function includeChain(s: Span): string {
  let out = '';
  let from = s.file.includedFrom;
  const lines: string[] = [];
  while (from) {
    lines.push(`In file included from ${location(from)}:\n`);
    from = from.file.includedFrom;
  }
  for (const l of lines) out += l;
  return out;
}

/**
 * The source line of a span with a caret under its start and tildes under the rest of it. A long
 * line is shown as a window of FRAME_WIDTH columns around the caret; control characters are escaped
 * and the marker moves with them.
 */
export function codeFrame(s: Span, color = false): string {
  const { line, col } = s.file.lineCol(s.start);
  const full = s.file.lineText(line);
  const endOnLine = s.file.lineCol(Math.max(s.start, s.end - 1));
  const last = Math.min(endOnLine.line === line ? endOnLine.col : full.length, full.length + 1);
  const from = Math.max(0, Math.min(col - 1 - (FRAME_WIDTH >> 2), full.length - FRAME_WIDTH));
  const to = Math.min(full.length, from + FRAME_WIDTH);
  let text = from > 0 ? '...' : '';
  let marker = ' '.repeat(text.length);
  for (let k = from; k < Math.max(to, col); k++) {
    const ch = k < full.length ? full[k] : ' ';
    const shown = ch === '\t' ? ' ' : escapeControls(ch);
    if (k < to) text += shown;
    const c = k + 1;
    marker += (c === col ? '^' : c > col && c <= last ? '~' : ' ').padEnd(
      shown.length,
      c > col && c <= last ? '~' : ' ',
    );
  }
  if (to < full.length) text += '...';
  marker = marker.trimEnd();
  const gutter = String(line);
  const pad = ' '.repeat(gutter.length);
  if (color) marker = COLORS.green + marker + COLORS.reset;
  return ` ${gutter} | ${text}\n ${pad} | ${marker}\n`;
}

export function formatDiagnostic(d: Diagnostic, options: FormatOptions = {}): string {
  const c = options.color ?? false;
  const sev = c ? `${COLORS[d.severity]}${d.severity}:${COLORS.reset}` : `${d.severity}:`;
  let out = '';
  if (d.span) {
    out += includeChain(d.span);
    const loc = c ? `${COLORS.bold}${location(d.span)}:${COLORS.reset}` : `${location(d.span)}:`;
    out += `${loc} ${sev} ${message(d.message)} [${d.code}]\n`;
    out += codeFrame(d.span, c);
  } else {
    out += `kernarg: ${sev} ${message(d.message)} [${d.code}]\n`;
  }
  for (const r of d.related) {
    const note = c ? `${COLORS.note}note:${COLORS.reset}` : 'note:';
    if (r.span) out += `${location(r.span)}: ${note} ${message(r.message)}\n` + codeFrame(r.span, c);
    else out += `kernarg: ${note} ${message(r.message)}\n`;
  }
  return out;
}

const message = (m: string): string => escapeControls(clip(m, MESSAGE_LIMIT));

export function formatDiagnostics(ds: readonly Diagnostic[], options: FormatOptions = {}): string {
  let out = '';
  let left = 0;
  for (const d of ds) {
    if (out.length > OUTPUT_LIMIT) left++;
    else out += formatDiagnostic(d, options);
  }
  if (left) out += `kernarg: note: ${left} more diagnostic${left === 1 ? '' : 's'} not shown\n`;
  const errors = ds.filter((d) => d.severity === 'error').length;
  const warnings = ds.filter((d) => d.severity === 'warning').length;
  const parts: string[] = [];
  if (warnings) parts.push(`${warnings} warning${warnings === 1 ? '' : 's'}`);
  if (errors) parts.push(`${errors} error${errors === 1 ? '' : 's'}`);
  if (parts.length) out += `${parts.join(' and ')} generated.\n`;
  return out;
}
