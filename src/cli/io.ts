import type { ReadResult } from './read-input.js';

/** Everything the CLI touches outside itself, so tests can run it in memory. */
export interface CliIO {
  stdout(text: string): void;
  stderr(text: string): void;
  /** An input file's text, or undefined when it cannot be read. */
  readFile(path: string): string | undefined;
  /** An input file's text or why it cannot be read (`readInput` for real files); when absent, `readFile` stands in. */
  readInput?(path: string): ReadResult;
  /** All of standard input (for the `-` input), or undefined when it cannot be read. */
  readStdin?(): string | undefined;
  /** Writes an output file (`-o`; text or binary), throwing when it cannot; absent where the CLI runs without a file system. */
  writeFile?(path: string, data: string | Uint8Array): void;
  /** Whether stderr is a colour terminal. */
  readonly color: boolean;
}

/** Reads an input through the CLI's IO, with the reason when it cannot. */
export function readText(io: CliIO, path: string): ReadResult {
  if (io.readInput) return io.readInput(path);
  const text = io.readFile(path);
  return text === undefined ? { error: 'no such file or directory' } : { text };
}

/** Standard input (the `-` input), or why it cannot be read. */
export function readStdinText(io: CliIO): ReadResult {
  const text = io.readStdin?.();
  return text === undefined ? { error: 'standard input cannot be read (or is larger than the input limit)' } : { text };
}

/** The file host the frontends read #include files through: a missing file lets the search go on, any other failure stops it. */
export function includeHost(io: CliIO): { readFile(path: string): string | undefined | { readonly error: string } } {
  return {
    readFile: (path) => {
      const r = readText(io, path);
      if ('text' in r) return r.text;
      return r.error === 'no such file or directory' ? undefined : r;
    },
  };
}
