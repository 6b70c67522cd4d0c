// A bounds-checked msgpack decoder for the AMDGPU metadata note (LLVM's msgpack::Document writes
// it). Every length is checked against the bytes left before anything is read or allocated, the
// nesting has a depth budget and the whole value a count budget, so a forged length cannot make
// it allocate gigabytes, recurse off the stack or loop.
import { Messages } from '../diagnostics/messages.js';
import { fail } from './byte-error.js';

/** A decoded value. Maps keep their entries in order, each with the offset of its value (for messages). */
export type MsgValue = null | boolean | number | string | Uint8Array | MsgArray | MsgMap;

export class MsgArray {
  constructor(
    readonly items: readonly MsgValue[],
    readonly offsets: readonly number[],
    readonly offset: number,
  ) {}
}

export class MsgMap {
  constructor(
    readonly entries: readonly { readonly key: MsgValue; readonly value: MsgValue; readonly offset: number }[],
    readonly offset: number,
  ) {}
  /** The value under a string key (the first one), or undefined. */
  get(key: string): MsgValue | undefined {
    return this.entries.find((e) => e.key === key)?.value;
  }
  /** The byte offset of the value under a key, or the map's own. */
  offsetOf(key: string): number {
    return this.entries.find((e) => e.key === key)?.offset ?? this.offset;
  }
}

export interface MsgpackBudget {
  /** Deepest nesting of arrays and maps. */
  readonly depth: number;
  /** Most values (every scalar, array and map counts one). */
  readonly values: number;
}

export const DEFAULT_MSGPACK_BUDGET: MsgpackBudget = { depth: 64, values: 1 << 22 };

/**
 * The one msgpack value that fills `bytes`; `base` is where they start in the file, so every
 * message names a byte of the file. Throws a ByteError on anything malformed.
 */
export function decodeMsgpack(bytes: Uint8Array, base = 0, budget: MsgpackBudget = DEFAULT_MSGPACK_BUDGET): MsgValue {
  const d = new Decoder(bytes, base, budget);
  const v = d.value(0);
  if (d.at < bytes.length) fail(Messages.msgpackTrailing, base + d.at, bytes.length - d.at);
  return v;
}

class Decoder {
  at = 0;
  private count = 0;
  private readonly view: DataView;
  private readonly utf8 = new TextDecoder('utf-8', { fatal: false });
  constructor(
    private readonly bytes: Uint8Array,
    private readonly base: number,
    private readonly budget: MsgpackBudget,
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  private need(n: number, what: string): void {
    if (n > this.bytes.length - this.at)
      fail(Messages.msgpackTruncated, this.base + Math.min(this.at, this.bytes.length), what);
  }
  private uint(n: 1 | 2 | 4 | 8, what: string): number {
    this.need(n, what);
    const at = this.at;
    this.at += n;
    switch (n) {
      case 1:
        return this.view.getUint8(at);
      case 2:
        return this.view.getUint16(at);
      case 4:
        return this.view.getUint32(at);
      case 8: {
        const hi = this.view.getUint32(at);
        if (hi >= 0x200000) fail(Messages.msgpackBigInteger, this.base + at - 1, this.view.getBigUint64(at).toString());
        return hi * 2 ** 32 + this.view.getUint32(at + 4);
      }
    }
  }
  private int(n: 1 | 2 | 4 | 8, what: string): number {
    this.need(n, what);
    const at = this.at;
    this.at += n;
    switch (n) {
      case 1:
        return this.view.getInt8(at);
      case 2:
        return this.view.getInt16(at);
      case 4:
        return this.view.getInt32(at);
      case 8: {
        const v = this.view.getBigInt64(at);
        if (v > BigInt(Number.MAX_SAFE_INTEGER) || v < -BigInt(Number.MAX_SAFE_INTEGER))
          fail(Messages.msgpackBigInteger, this.base + at - 1, v.toString());
        return Number(v);
      }
    }
  }
  private raw(n: number, what: string): Uint8Array {
    this.need(n, what);
    const out = this.bytes.subarray(this.at, this.at + n);
    this.at += n;
    return out;
  }
  private str(n: number): string {
    return this.utf8.decode(this.raw(n, 'a string'));
  }

  value(depth: number): MsgValue {
    const start = this.at;
    if (++this.count > this.budget.values) fail(Messages.msgpackTooMany, this.base + start, this.budget.values);
    const t = this.uint(1, 'a value');
    if (t <= 0x7f) return t;
    if (t >= 0xe0) return t - 0x100;
    if ((t & 0xf0) === 0x80) return this.map(t & 0x0f, depth, start);
    if ((t & 0xf0) === 0x90) return this.array(t & 0x0f, depth, start);
    if ((t & 0xe0) === 0xa0) return this.str(t & 0x1f);
    switch (t) {
      case 0xc0:
        return null;
      case 0xc2:
        return false;
      case 0xc3:
        return true;
      case 0xc4:
        return this.raw(this.uint(1, 'a bin length'), 'bin data').slice();
      case 0xc5:
        return this.raw(this.uint(2, 'a bin length'), 'bin data').slice();
      case 0xc6:
        return this.raw(this.uint(4, 'a bin length'), 'bin data').slice();
      case 0xca:
        this.need(4, 'a float');
        this.at += 4;
        return this.view.getFloat32(this.at - 4);
      case 0xcb:
        this.need(8, 'a float');
        this.at += 8;
        return this.view.getFloat64(this.at - 8);
      case 0xcc:
        return this.uint(1, 'a uint8');
      case 0xcd:
        return this.uint(2, 'a uint16');
      case 0xce:
        return this.uint(4, 'a uint32');
      case 0xcf:
        return this.uint(8, 'a uint64');
      case 0xd0:
        return this.int(1, 'an int8');
      case 0xd1:
        return this.int(2, 'an int16');
      case 0xd2:
        return this.int(4, 'an int32');
      case 0xd3:
        return this.int(8, 'an int64');
      case 0xd9:
        return this.str(this.uint(1, 'a str8 length'));
      case 0xda:
        return this.str(this.uint(2, 'a str16 length'));
      case 0xdb:
        return this.str(this.uint(4, 'a str32 length'));
      case 0xdc:
        return this.array(this.uint(2, 'an array16 length'), depth, start);
      case 0xdd:
        return this.array(this.uint(4, 'an array32 length'), depth, start);
      case 0xde:
        return this.map(this.uint(2, 'a map16 length'), depth, start);
      case 0xdf:
        return this.map(this.uint(4, 'a map32 length'), depth, start);
      default:
        // 0xc1 (never used) and the ext types, which LLVM's metadata never writes.
        return fail(Messages.msgpackReserved, this.base + start, t.toString(16).padStart(2, '0'));
    }
  }

  /** Each element takes at least one byte: a count past the bytes left is refused before any is read. */
  private room(n: number, perItem: number, start: number, what: string): void {
    if (n * perItem > this.bytes.length - this.at)
      fail(Messages.msgpackTruncated, this.base + start, `${what} of ${n}`);
  }
  private array(n: number, depth: number, start: number): MsgArray {
    if (depth >= this.budget.depth) fail(Messages.msgpackTooDeep, this.base + start, this.budget.depth);
    this.room(n, 1, start, 'an array');
    const items: MsgValue[] = [];
    const offsets: number[] = [];
    for (let i = 0; i < n; i++) {
      offsets.push(this.base + this.at);
      items.push(this.value(depth + 1));
    }
    return new MsgArray(items, offsets, this.base + start);
  }
  private map(n: number, depth: number, start: number): MsgMap {
    if (depth >= this.budget.depth) fail(Messages.msgpackTooDeep, this.base + start, this.budget.depth);
    this.room(n, 2, start, 'a map');
    const entries: { key: MsgValue; value: MsgValue; offset: number }[] = [];
    for (let i = 0; i < n; i++) {
      const key = this.value(depth + 1);
      const offset = this.base + this.at;
      entries.push({ key, value: this.value(depth + 1), offset });
    }
    return new MsgMap(entries, this.base + start);
  }
}
