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

/** A problem with the user's setup or input found while running (no device, no such kernel, a source kernarg rejects). */
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
