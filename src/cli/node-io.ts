import { appendFileSync, mkdirSync, readSync, writeFileSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { isatty } from 'node:tty';
import type { CliIO } from './io.js';
import { INPUT_LIMIT_BYTES, ioReason, readInput } from './read-input.js';

/** Writes a file, making its folder first (`-o out/k.json`, `--output-dir out`); a failure says why in words. */
function writeMakingFolders(path: string, data: string | Uint8Array): void {
  try {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, data);
  } catch (e) {
    throw new Error(ioReason(e));
  }
}

/**
 * Writes to a file descriptor with write(2) directly. Touching `process.stdout` builds a stream
 * (and loads Node's stream modules: about a tenth of a short `kernarg lower` call); a command that
 * writes its result once does not need one. A descriptor the parent left non-blocking answers
 * EAGAIN when the pipe is full: wait for it and write the rest.
 */
const closed = new Set<number>();
function writeAll(fd: number, text: string): void {
  writeBytes(fd, Buffer.from(text, 'utf8'));
}

function writeBytes(fd: number, bytes: Buffer): void {
  let buf = bytes;
  while (buf.length && !closed.has(fd)) {
    try {
      buf = buf.subarray(writeSync(fd, buf));
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      // The reader went away (`kernarg lower … | head`): nothing more to write there.
      if (code === 'EPIPE') closed.add(fd);
      else if (code === 'EAGAIN') Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
      else throw e;
    }
  }
}

/** Bytes to stdout go out in writes of this many (the pieces encoded into one buffer, used again). */
const PIECE_BUFFER_BYTES = 1 << 20;

/**
 * Pieces at least this long are looked for among the last REPEAT_SLOTS such pieces: a renderer's cached text (the
 * table of kernels of one shape, 1.7 KB a kernel for amdhsa) comes piece after piece, and is copied as the bytes it
 * was encoded to the second time, not encoded again.
 */
const REPEAT_CHARS = 256;
const REPEAT_SLOTS = 4;

/**
 * Hands `sink` the UTF-8 bytes of pieces of text, encoded straight into one reused buffer that goes to the sink
 * whenever the next text does not fit: no new Buffer per write (a file of 190,000 kernels writes hundreds of MB of
 * table in pieces of a kernel or less, LLVM IR a line at a time). Pieces shorter than a sixteenth of the buffer are
 * appended to one string first and encoded together: one encoding call per ~64 K characters instead of one per
 * piece (each call costs about what encoding a line does), the pieces' own joins flattened once. A piece longer than
 * the buffer goes on its own. `stop` ends it early.
 */
export function encodePieces(
  pieces: Iterable<string>,
  sink: (bytes: Buffer) => void,
  stop: () => boolean = () => false,
  bufferBytes = PIECE_BUFFER_BYTES,
): void {
  const buf = Buffer.allocUnsafe(bufferBytes);
  const batchChars = bufferBytes >> 4;
  let used = 0;
  const encode = (text: string) => {
    // Each UTF-16 unit is at most 3 bytes of UTF-8: a text that surely fits is encoded straight in.
    if (used + text.length * 3 > bufferBytes) {
      if (used) sink(buf.subarray(0, used));
      used = 0;
      if (text.length * 3 > bufferBytes) {
        sink(Buffer.from(text, 'utf8'));
        return;
      }
    }
    used += buf.write(text, used);
  };
  const copy = (bytes: Uint8Array) => {
    if (used + bytes.length > bufferBytes) {
      if (used) sink(buf.subarray(0, used));
      used = 0;
    }
    buf.set(bytes, used);
    used += bytes.length;
  };
  // The last long pieces (a ring), each with its bytes once it came twice.
  const recent: string[] = [];
  const recentBytes: (Uint8Array | undefined)[] = [];
  let next = 0;
  let batch = '';
  for (const piece of pieces) {
    if (stop()) return;
    if (piece.length >= REPEAT_CHARS && piece.length * 3 <= bufferBytes) {
      const at = recent.indexOf(piece);
      if (at >= 0) {
        if (batch) encode(batch);
        batch = '';
        copy((recentBytes[at] ??= Buffer.from(piece, 'utf8')));
        continue;
      }
      recent[next] = piece;
      recentBytes[next] = undefined;
      next = (next + 1) % REPEAT_SLOTS;
    }
    if (piece.length >= batchChars) {
      if (batch) encode(batch);
      batch = '';
      if (stop()) return;
      encode(piece);
    } else if ((batch += piece).length >= batchChars) {
      encode(batch);
      batch = '';
    }
  }
  if (batch && !stop()) encode(batch);
  if (used && !stop()) sink(buf.subarray(0, used));
}

/** All of standard input, up to the input limit (a pipe from /dev/zero stops there instead of filling memory). */
function readStdinBounded(): string | undefined {
  const chunks: Buffer[] = [];
  let total = 0;
  const buf = Buffer.allocUnsafe(1 << 16);
  try {
    for (;;) {
      const n = readSync(0, buf, 0, buf.length, null);
      if (n === 0) break;
      total += n;
      if (total > INPUT_LIMIT_BYTES) return undefined;
      chunks.push(Buffer.from(buf.subarray(0, n)));
    }
  } catch {
    return undefined;
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The CLI's input and output on Node: stdout and stderr written synchronously, files read as UTF-8. */
export function nodeIO(): CliIO {
  return {
    stdout: (t) => writeAll(1, t),
    stdoutPieces: (pieces) =>
      encodePieces(
        pieces,
        (bytes) => writeBytes(1, bytes),
        () => closed.has(1),
      ),
    stderr: (t) => writeAll(2, t),
    readFile: (p) => {
      const r = readInput(p);
      return 'text' in r ? r.text : undefined;
    },
    readInput,
    readStdin: () => readStdinBounded(),
    writeFile: writeMakingFolders,
    appendFile: (p, text) => {
      try {
        appendFileSync(p, text);
      } catch (e) {
        throw new Error(ioReason(e));
      }
    },
    // isatty(2), not process.stderr.isTTY: the latter builds the stderr stream (about 9 ms).
    color: isatty(2) && !process.env.NO_COLOR && process.env.TERM !== 'dumb',
  };
}
