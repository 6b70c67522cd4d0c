// One command-line option as a record (the TypeScript compiler's `optionDeclarations` is the
// model): what the parser takes, what --help and the README say, and the field of lower()'s
// options it sets. The CLI's parser reads these (its OptionSpec is this type); the shared options
// of every target are declared once in input-options.ts and common-options.ts.

export interface OptionDeclaration {
  readonly name: string;
  /** One-letter form, like -I or -D (value may be attached: -Idir). */
  readonly short?: string;
  readonly kind: 'string' | 'boolean' | 'list';
  /** How help spells the value (`<dir>`, `cl|ir`). */
  readonly value?: string;
  readonly help: string;
  /** Also spelled with one dash, as the tool it mirrors does (clang's `-cl-std=CL2.0`, clspv's `-pod-ubo`). */
  readonly singleDash?: boolean;
  /** Help spells it with one dash, as the build lines it is pasted from do (`-Werror`, `-cl-mad-enable`). */
  readonly shownWithOneDash?: boolean;
  /** The values a string option takes: the parser refuses any other (with a "did you mean"). */
  readonly choices?: readonly string[];
  /**
   * The field of lower()'s options it sets, as a library caller writes it (`std`, `tinytc.dopeOrder`); none for the
   * command line's own.
   */
  readonly option?: string;
}
