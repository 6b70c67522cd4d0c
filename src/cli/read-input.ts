import { isAscii } from 'node:buffer';
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

/**
 * What reading an input gives: its text, or why it could not be read (a sentence, no trailing
 * period). A file read from disk also gives its bytes, for inputs that are compiled kernels.
 */
export type ReadResult = { readonly text: string; readonly bytes?: Uint8Array } | { readonly error: string };

/** The most any one input file may hold: far beyond any real kernel source or argument file. */
export const INPUT_LIMIT_BYTES = 256 * 1024 * 1024;

const CHUNK = 1 << 20;

/**
 * Reads a text input with a size limit, and only from a regular file: `/dev/zero`, `/dev/urandom`,
 * a FIFO or a directory is refused without reading a byte (a FIFO is opened non-blocking, so a
 * pipe with no writer cannot hang the open either). The limit is checked against the size the
 * file says it has and again while reading, so a file growing underneath cannot pass it.
 */
export function readInput(path: string, limitBytes: number = INPUT_LIMIT_BYTES): ReadResult {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (e) {
    return { error: ioReason(e) };
  }
  try {
    const st = fstatSync(fd);
    if (st.isDirectory()) return { error: 'is a directory' };
    if (!st.isFile()) return { error: 'is not a regular file' };
    if (st.size > limitBytes) return { error: `is larger than the input limit of ${limitBytes} bytes` };
    // One buffer of the size the file says it has, and a byte to spare to see it end there; a file
    // that grows while it is read takes more, up to the limit.
    let buf = Buffer.allocUnsafe(Math.min(st.size + 1, limitBytes + 1));
    let total = 0;
    for (;;) {
      if (total === buf.length) {
        if (total > limitBytes) return { error: `is larger than the input limit of ${limitBytes} bytes` };
        const more = Buffer.allocUnsafe(Math.min(total + CHUNK, limitBytes + 1));
        buf.copy(more, 0, 0, total);
        buf = more;
      }
      const n = readSync(fd, buf, total, buf.length - total, null);
      if (n === 0) break;
      total += n;
    }
    // Here total < buf.length <= limitBytes + 1: a buffer filled past the limit was refused above.
    const all = buf.subarray(0, total);
    return { text: decodeText(all), bytes: new Uint8Array(all.buffer, all.byteOffset, all.byteLength) };
  } catch (e) {
    return { error: ioReason(e) };
  } finally {
    closeSync(fd);
  }
}

/**
 * A file's bytes as text, decoded as UTF-8. An all-ASCII file (nearly every kernel source) is decoded
 * as Latin-1, which gives the same string: Node 20 decodes UTF-8 at about 4 ns a byte into a string on
 * V8's heap (9 ms for hashcat's 2.4 MB `inc_common.cl`), Latin-1 into a string outside it at a tenth
 * of that, and the ASCII check is a vector scan.
 */
export function decodeText(bytes: Buffer): string {
  return isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
}

/** Why a file operation failed, in words (an errno code's meaning, not Node's `ENOENT: …, open 'x'`). */
export function ioReason(e: unknown): string {
  const code = (e as { code?: unknown }).code;
  switch (code) {
    case 'ENOENT':
      return 'no such file or directory';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'is a directory';
    case 'ENOTDIR':
      return 'a component of the path is not a directory';
    case 'ELOOP':
      return 'too many levels of symbolic links';
    case 'ENAMETOOLONG':
      return 'file name too long';
    case 'EEXIST':
      return 'a file of that name is in the way';
    case 'ENOSPC':
      return 'no space left on the device';
    case 'EROFS':
      return 'the file system is read-only';
    default:
      return e instanceof Error ? e.message : String(e);
  }
}
