// Names made by appending to another (`T*`, `float4`, CLRX's `uint*`), one string per spelling:
// lowerings ask for the same few thousands of times, and a string made afresh each time is a new
// key for every table and JSON writer that looks it up (hashed, and flattened first).

const spellings = new Map<string, Map<string | number, string>>();
/** Bounded: a process that lowers many programs starts again past this many spellings. */
const MAX_SPELLINGS = 4096;
let spellingCount = 0;

/** `${head}${tail}`, the same string each time it is asked for. */
export function spelledOnce(head: string, tail: string | number): string {
  let byTail = spellings.get(head);
  if (byTail === undefined) spellings.set(head, (byTail = new Map()));
  let s = byTail.get(tail);
  if (s === undefined) {
    if (++spellingCount > MAX_SPELLINGS) {
      spellings.clear();
      byTail.clear();
      spellings.set(head, byTail);
      spellingCount = 1;
    }
    byTail.set(tail, (s = `${head}${tail}`));
  }
  return s;
}
