// `kernarg run --args <file.json>`: its JSON read, and its mistakes told at line:col of the file's
// text with a code frame: a syntax error where the text goes wrong, and every refused value where
// it is written (all of them, as the readers collect them: see runtime/args/arg-problems.ts).
import { Messages } from '../diagnostics/messages.js';
import { ArgsError } from '../runtime/args/arg-problems.js';
import { placesOf, scanJson } from '../runtime/args/json-text.js';
import type { PackError } from '../pack/errors.js';
import type { CliIO } from './io.js';
import { type TextDiagnostic, textDiagnostics } from './file-diagnostics.js';

/** What parseArgsJson returns for a text that is not JSON (after saying where it goes wrong). */
export const NOT_JSON: unique symbol = Symbol('not JSON');

/** The file's JSON, or NOT_JSON after reporting its first syntax error at its line and column. */
export function parseArgsJson(io: CliIO, path: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    // JSON.parse says where only as an offset, and not in every engine: the scanner finds the place.
    const error = scanJson(text);
    const item: TextDiagnostic = error
      ? { message: Messages.argsNotJson, args: [error.message], place: error }
      : { message: Messages.argsNotJson, args: [(e as Error).message] };
    io.stderr(textDiagnostics(path, text, [item]));
    return NOT_JSON;
  }
}

/**
 * Every refused argument of an arguments file at the place it is written (its argument's, where the value is missing).
 */
export function argsDiagnostics(path: string, text: string, e: PackError): string {
  const problems = e instanceof ArgsError ? e.problems : [e];
  const places = placesOf(
    text,
    problems.map((p) => p.arg),
  );
  const items: TextDiagnostic[] = problems.map((p, i) => ({
    message: Messages.argsMistake,
    args: [p.kernel, p.arg, p.problem],
    place: places[i],
  }));
  if (e instanceof ArgsError && e.stopped)
    items.push({ message: Messages.argsTooMany, args: [problems.length], place: places[places.length - 1] });
  return textDiagnostics(path, text, items);
}
