import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const DIR = join(import.meta.dirname, '..', 'deliberate');

/** The reviewed deliberate differences of one test: the `<case>` of every `test/deliberate/<test>-<case>.md`. */
export function deliberateCases(test: string): Set<string> {
  const prefix = `${test}-`;
  return new Set(
    readdirSync(DIR)
      .filter((f) => f.startsWith(prefix) && f.endsWith('.md'))
      .map((f) => f.slice(prefix.length, -3)),
  );
}
