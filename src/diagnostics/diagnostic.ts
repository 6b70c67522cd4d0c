import type { Span } from './source.js';
import type { Message, Severity } from './messages.js';

export type { Severity };

export interface RelatedInformation {
  readonly message: string;
  readonly span?: Span;
}

export interface Diagnostic {
  readonly code: string;
  readonly severity: Severity;
  readonly message: string;
  readonly span?: Span;
  readonly related: readonly RelatedInformation[];
}

function fill(template: string, args: readonly (string | number)[]): string {
  return template.replace(/\{(\d+)\}/g, (_, i: string) => String(args[Number(i)]));
}

/** Collects diagnostics for one compilation. Phases report into it and go on where they can. */
export class DiagnosticBag {
  readonly items: Diagnostic[] = [];
  private errorCount = 0;
  /** Stops a runaway input from producing millions of diagnostics. */
  readonly limit: number;

  constructor(limit = 200) {
    this.limit = limit;
  }

  report(
    message: Message,
    span: Span | undefined,
    args: readonly (string | number)[] = [],
    related: readonly RelatedInformation[] = [],
  ): Diagnostic {
    if (span?.notes) related = [...span.notes, ...related];
    const d: Diagnostic = {
      code: message.code,
      severity: message.severity,
      message: fill(message.text, args),
      span,
      related,
    };
    // Errors and the rest are capped apart, so warnings filling the list cannot hide the error
    // that stops the compilation (an output missing with no error said).
    if (d.severity === 'error') {
      if (this.errorCount++ < this.limit) this.items.push(d);
    } else if (this.items.length - Math.min(this.errorCount, this.limit) < this.limit) this.items.push(d);
    return d;
  }

  get hasErrors(): boolean {
    return this.errorCount > 0;
  }

  /** Where the bag stands now, for `rollback`. */
  mark(): { readonly items: number; readonly errors: number } {
    return { items: this.items.length, errors: this.errorCount };
  }

  /** Forgets what was reported since `mark` (a tentative reading whose problems are not the input's). */
  rollback(m: { readonly items: number; readonly errors: number }): void {
    this.items.length = m.items;
    this.errorCount = m.errors;
  }

  get errors(): number {
    return this.errorCount;
  }
}
