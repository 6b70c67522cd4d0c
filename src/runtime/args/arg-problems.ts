// Every mistake of an arguments file in one run: the readers check each argument (and each entry
// of an array) apart, keep what they refuse, and throw all of it at the end, as a compiler reports
// every error of a file rather than the first. Capped, as compiler diagnostics are.
import { PackError } from '../../pack/errors.js';

/** The most mistakes one reading keeps; past it the reading stops (as clang's -ferror-limit). */
export const ARG_PROBLEM_LIMIT = 50;

/** Every mistake found in one arguments file; a PackError whose message is the first one's. */
export class ArgsError extends PackError {
  constructor(
    readonly problems: readonly PackError[],
    /** Whether the reading stopped at the limit, so later mistakes were not looked for. */
    readonly stopped: boolean,
  ) {
    const first = problems[0];
    const more = problems.length - 1;
    super(
      first.kernel,
      first.arg,
      `${first.problem}${more ? ` (and ${more}${stopped ? ' or more' : ''} more mistake${more === 1 && !stopped ? '' : 's'} in the arguments)` : ''}`,
    );
    this.name = 'ArgsError';
  }
}

/** The mistakes of one reading so far. */
export class ArgProblems {
  private readonly list: PackError[] = [];
  private stoppedEarly = false;

  /** Whether the limit is reached: callers stop looking. */
  get full(): boolean {
    return this.list.length >= ARG_PROBLEM_LIMIT;
  }

  /**
   * Keeps a refusal (every one an ArgsError holds); anything but a PackError is no mistake of the file and goes on up.
   */
  add(e: unknown): void {
    if (!(e instanceof PackError)) throw e;
    const found = e instanceof ArgsError ? e.problems : [e];
    if (e instanceof ArgsError && e.stopped) this.stoppedEarly = true;
    for (const p of found) {
      if (this.full) {
        this.stoppedEarly = true;
        return;
      }
      this.list.push(p);
    }
  }

  /** Runs one check; what it refuses is kept and undefined returned, so the reading goes on. */
  check<T>(f: () => T): T | undefined {
    try {
      return f();
    } catch (e) {
      this.add(e);
      return undefined;
    }
  }

  /** Throws every mistake kept, if any. */
  throwIfAny(): void {
    if (this.list.length) throw new ArgsError(this.list, this.stoppedEarly || this.full);
  }
}
