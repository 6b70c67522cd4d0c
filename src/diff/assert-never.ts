/** Exhaustiveness check for switches over unions: a new member is a compile error here. */
export function assertNever(x: never): never {
  throw new Error(`unhandled case: ${JSON.stringify(x)}`);
}
