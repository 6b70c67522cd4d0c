/** kernarg's version: printed by `--version`, and part of every build-cache key. */
export const KERNARG_VERSION = '0.1.0';
