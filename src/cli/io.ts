/** Everything the CLI touches outside itself, so tests can run it in memory. */
export interface CliIO {
  stdout(text: string): void;
  stderr(text: string): void;
  readFile(path: string): string | undefined;
  /** Writes an output file (`-o`); absent where the CLI runs without a file system. */
  writeFile?(path: string, text: string): void;
  /** Whether stderr is a colour terminal. */
  readonly color: boolean;
}
