import type { ReadResult } from './read-input.js';

/** Everything the CLI touches outside itself, so tests can run it in memory. */
export interface CliIO {
  stdout(text: string): void;
  /** Writes text pieces to stdout as they come (an output longer than one string may be); absent: `stdout` per batch. */
  stdoutPieces?(pieces: Iterable<string>): void;
  stderr(text: string): void;
  /** An input file's text, or undefined when it cannot be read. */
  readFile(path: string): string | undefined;
  /** An input file's text or why it cannot be read (`readInput` for real files); when absent, `readFile` stands in. */
  readInput?(path: string): ReadResult;
  /** All of standard input (for the `-` input), or undefined when it cannot be read. */
  readStdin?(): string | undefined;
  /**
   * Writes an output file (`-o`; text or binary), throwing when it cannot; absent where the CLI runs without a file
   * system.
   */
  writeFile?(path: string, data: string | Uint8Array): void;
  /** Appends text to an output file `writeFile` began: outputs longer than one string may be (`writeOutput`). */
  appendFile?(path: string, text: string): void;
  /** Whether stderr is a colour terminal. */
  readonly color: boolean;
}

/** Text outputs go out in writes of about this many characters. */
const BATCH_CHARS = 1 << 20;

/**
 * Pieces joined into texts of about 1 MiB, each made as the pieces come (one write per piece would
 * cost more system calls than the join; the whole text at once may be longer than one V8 string).
 * An empty output is one empty text.
 */
export function* inBatches(pieces: Iterable<string>): Generator<string, void, undefined> {
  let batch: string[] = [];
  let length = 0;
  let any = false;
  for (const c of pieces) {
    batch.push(c);
    length += c.length;
    if (length >= BATCH_CHARS) {
      yield batch.join('');
      any = true;
      batch = [];
      length = 0;
    }
  }
  if (batch.length || !any) yield batch.join('');
}

/**
 * Writes an output file from the pieces `lower(…, { chunked: true })` returns (`pieces` or
 * `chunks`), as they come: begun with `writeFile` and continued with `appendFile` in batches of
 * about 1 MiB, so no more than a batch is held at once (100,000 kernels of amdhsa JSON are
 * 690 MiB, longer than one V8 string), and an output under 1 MiB is one write. An IO without
 * `appendFile` gets the text joined in one write.
 */
export function writeOutput(io: CliIO, path: string, data: Uint8Array | Iterable<string>): void {
  const write = io.writeFile;
  if (!write) throw new Error('this environment cannot write files');
  if (data instanceof Uint8Array) return write(path, data);
  const append = io.appendFile;
  if (!append) return write(path, Array.from(data).join(''));
  let begun = false;
  for (const text of inBatches(data)) {
    if (begun) append(path, text);
    else write(path, text);
    begun = true;
  }
}

/** Reads an input through the CLI's IO, with the reason when it cannot. */
export function readText(io: CliIO, path: string): ReadResult {
  if (io.readInput) return io.readInput(path);
  const text = io.readFile(path);
  return text === undefined ? { error: 'no such file or directory' } : { text };
}

/** Why a file `readFile` could not read cannot be read, in words. */
export function whyUnreadable(io: CliIO, path: string): string {
  const r = readText(io, path);
  return 'error' in r ? r.error : 'it changed while being read';
}

/** Standard input (the `-` input), or why it cannot be read. */
export function readStdinText(io: CliIO): ReadResult {
  const text = io.readStdin?.();
  return text === undefined ? { error: 'standard input cannot be read (or is larger than the input limit)' } : { text };
}

/**
 * The file host the frontends read #include files through: a missing file lets the search go on, any other failure
 * stops it.
 */
export function includeHost(io: CliIO): { readFile(path: string): string | undefined | { readonly error: string } } {
  return {
    readFile: (path) => {
      const r = readText(io, path);
      if ('text' in r) return r.text;
      return r.error === 'no such file or directory' ? undefined : r;
    },
  };
}
