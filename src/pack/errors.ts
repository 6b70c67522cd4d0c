/** A value the runtime cannot represent in the argument's layout; names the kernel and the argument path. */
export class PackError extends Error {
  constructor(
    readonly kernel: string,
    readonly arg: string,
    readonly problem: string,
  ) {
    super(`kernel '${kernel}', argument '${arg}': ${problem}`);
    this.name = 'PackError';
  }
}

/**
 * A problem with the user's setup or input found while running (no device, no such kernel, a source kernarg rejects).
 */
export class RuntimeInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RuntimeInputError';
  }
}

/** Thrown inside writers with the path inside the argument; re-thrown as PackError with the names. */
export class ValueError extends Error {
  constructor(
    readonly path: string,
    readonly problem: string,
  ) {
    super(problem);
  }
}

/** A launch the device or the kernel cannot take (geometry, limits); names the kernel. */
export class LaunchError extends Error {
  constructor(
    readonly kernel: string,
    readonly problem: string,
  ) {
    super(`kernel '${kernel}': ${problem}`);
    this.name = 'LaunchError';
  }
}

/**
 * A layout kind no packer knows, such as the `struct` of the JSON form: refused, never packed as
 * zeros. Plans read from JSON go through readPlan first.
 */
export function notALayout(l: never): never {
  throw new TypeError(
    `not a value layout: kind ${JSON.stringify((l as { kind?: unknown } | null)?.kind)} (read JSON plans with ` +
      `readPlan)`,
  );
}
