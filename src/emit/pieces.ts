// Formats written piece by piece: a format's generator yields its text a kernel at a time, so the
// CLI writes it as it is made and no more than a batch of it is held (files of very many kernels);
// the format's string form joins the same pieces, so both are the same bytes by construction.

/** The whole text of a format's pieces. */
export function joinPieces(pieces: Iterable<string>): string {
  return Array.from(pieces).join('');
}

/** `Array.from(parts).join(separator)`, as pieces: the separator goes before every part but the first. */
export function* separated(parts: Iterable<string>, separator: string): Generator<string, void, undefined> {
  let first = true;
  for (const p of parts) {
    yield first ? p : separator + p;
    first = false;
  }
}
