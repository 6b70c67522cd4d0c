// The one way a binary reader stops: a message at a byte offset. Readers throw it inside and the
// entry point of each reader turns it into a diagnostic, so no malformed input escapes as an exception.
import { type Diagnostic, DiagnosticBag } from '../diagnostics/diagnostic.js';
import type { Message } from '../diagnostics/messages.js';

/** A malformed input: the message's first argument is the byte offset it was found at. */
export class ByteError extends Error {
  constructor(
    readonly diagnosticMessage: Message,
    readonly args: readonly (string | number)[],
  ) {
    super(diagnosticMessage.text);
  }
}

/** Throws a ByteError. */
export function fail(message: Message, ...args: (string | number)[]): never {
  throw new ByteError(message, args);
}

/** One diagnostic for the file as a whole (no span: a binary has no lines; the message names the byte). */
export function byteDiagnostic(message: Message, args: readonly (string | number)[]): Diagnostic {
  return new DiagnosticBag().report(message, undefined, args);
}

/**
 * Runs a reader; a ByteError becomes its diagnostic. Anything else thrown is a bug in the reader
 * and is not hidden (the fuzz tests catch those).
 */
export function caught<T>(read: () => T): { readonly value?: T; readonly diagnostics: Diagnostic[] } {
  try {
    return { value: read(), diagnostics: [] };
  } catch (e) {
    if (e instanceof ByteError) return { diagnostics: [byteDiagnostic(e.diagnosticMessage, e.args)] };
    throw e;
  }
}
