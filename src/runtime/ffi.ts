import { createRequire } from 'node:module';
import type Koffi from 'koffi';

let loaded: typeof Koffi | undefined;

/**
 * koffi, loaded on first use rather than at import time, so that commands which never open a
 * device (`kernarg lower`, `--version`) do not pay for loading the native addon.
 */
export function koffi(): typeof Koffi {
  return (loaded ??= createRequire(import.meta.url)('koffi') as typeof Koffi);
}
