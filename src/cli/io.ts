/** Everything the CLI touches outside itself, so tests can run it in memory. */
export interface CliIO {
  stdout(text: string): void;
  stderr(text: string): void;
  readFile(path: string): string | undefined;
  /** Writes an output file (`-o`); returns an error text when it cannot. */
  writeFile?(path: string, data: string | Uint8Array): string | undefined;
  /** Whether stderr is a colour terminal. */
  readonly color: boolean;
}
