/** Everything the CLI touches outside itself, so tests can run it in memory. */
export interface CliIO {
  stdout(text: string): void;
  stderr(text: string): void;
  readFile(path: string): string | undefined;
  /** Writes an output file (`-o`; text or binary), throwing when it cannot; absent where the CLI runs without a file system. */
  writeFile?(path: string, data: string | Uint8Array): void;
  /** Whether stderr is a colour terminal. */
  readonly color: boolean;
}
