/** Everything the CLI touches outside itself, so tests can run it in memory. */
export interface CliIO {
  stdout(text: string): void;
  stderr(text: string): void;
  readFile(path: string): string | undefined;
  /** All of standard input (for the `-` input), or undefined when it cannot be read. */
  readStdin?(): string | undefined;
  /** Writes a whole file (`-o`); false when it cannot. */
  writeFile?(path: string, text: string): boolean;
  /** Whether stderr is a colour terminal. */
  readonly color: boolean;
}
