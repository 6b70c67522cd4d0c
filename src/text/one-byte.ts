// Texts that emitters make once and write many times, copied into V8's compact form.
//
// V8 stores a string one byte per character when every character fits a byte, else two. A
// string joined from pieces (Array.prototype.join, `+`) is two-byte as soon as one piece is, and
// a piece counts as two-byte when it is a "thin" string, whatever it holds: a string becomes thin
// once the engine internalizes it after it was made (any string used as a property key, as type
// names and argument names are in the layout and ABI tables). Measured on the lower-bodies file
// (4,000 kernels, `--target opencl --format json`): the 7.2 M-character JSON came out two-byte
// (14 MiB), its join took 23 ms of the emitter's 37; with the member texts copied as below it is
// one-byte and the emitter takes 27 ms.

const ASCII_ONLY = /^[\u0000-\u007f]*$/;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * `s` itself, as a fresh flat one-byte string when it is ASCII (decoding UTF-8 bytes that are all
 * ASCII gives one); other strings are returned as they are. For texts made once and reused: the
 * copy costs a pass over `s`.
 */
export function oneByte(s: string): string {
  return ASCII_ONLY.test(s) ? decoder.decode(encoder.encode(s)) : s;
}
