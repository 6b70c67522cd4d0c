import type { Diagnostic } from './diagnostic.js';
import { type Span, describeLocation } from './source.js';

export interface FormatOptions {
  /** Wrap severities in ANSI colours. */
  color?: boolean;
}

const COLORS = { error: '\x1b[1;31m', warning: '\x1b[1;35m', note: '\x1b[1;36m', bold: '\x1b[1m', reset: '\x1b[0m', green: '\x1b[1;32m' };

const location = describeLocation;

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

/** The source line of a span with a caret under its start and tildes under the rest of it. */
export function codeFrame(s: Span, color = false): string {
  const { line, col } = s.file.lineCol(s.start);
  const text = s.file.lineText(line).replace(/\t/g, ' ');
  const endOnLine = s.file.lineCol(Math.max(s.start, s.end - 1));
  const last = endOnLine.line === line ? endOnLine.col : text.length;
  const width = Math.max(1, last - col + 1);
  const gutter = String(line);
  const pad = ' '.repeat(gutter.length);
  let marker = ' '.repeat(col - 1) + '^' + '~'.repeat(Math.max(0, Math.min(width, text.length - col + 2) - 1));
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
    out += `${loc} ${sev} ${d.message} [${d.code}]\n`;
    out += codeFrame(d.span, c);
  } else {
    out += `kernarg: ${sev} ${d.message} [${d.code}]\n`;
  }
  for (const r of d.related) {
    const note = c ? `${COLORS.note}note:${COLORS.reset}` : 'note:';
    if (r.span) out += `${location(r.span)}: ${note} ${r.message}\n` + codeFrame(r.span, c);
    else out += `kernarg: ${note} ${r.message}\n`;
  }
  return out;
}

export function formatDiagnostics(ds: readonly Diagnostic[], options: FormatOptions = {}): string {
  let out = '';
  for (const d of ds) out += formatDiagnostic(d, options);
  const errors = ds.filter((d) => d.severity === 'error').length;
  const warnings = ds.filter((d) => d.severity === 'warning').length;
  const parts: string[] = [];
  if (warnings) parts.push(`${warnings} warning${warnings === 1 ? '' : 's'}`);
  if (errors) parts.push(`${errors} error${errors === 1 ? '' : 's'}`);
  if (parts.length) out += `${parts.join(' and ')} generated.\n`;
  return out;
}
