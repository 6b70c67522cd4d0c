import { oneByte } from '../../text/one-byte.js';

/**
 * Identifiers met while scanning text at the character level, interned by a hash of their
 * characters: looking one up compares characters in place and allocates nothing once the name
 * is known. Each name gets a small integer id and one string; `stamp` is free per-id scratch for
 * whoever needs to mark names (a body scan marks the names it has seen with its own number).
 */
export class IdentTable {
  // Small to start with: one table is made per compilation, and most inputs are small (a fuzzer
  // compiles thousands a second); a large file grows it by doubling, a few times.
  private slots = new Int32Array(1 << 9);
  private mask = (1 << 9) - 1;
  private hashes = new Int32Array(256);
  /** Each name's characters, one after another, and where each name's start and how long it is. */
  private chars = new Uint16Array(2048);
  private used = 0;
  private offsets = new Int32Array(256);
  private lengths = new Int32Array(256);
  readonly names: string[] = [];
  stamp = new Int32Array(256);
  /**
   * Per id: whether the name is a macro now (1 or 0), or -1 until asked again (a new name, or one a `#define` or `#undef`
   * just named: only that name's answer changes, so the other names' answers are kept).
   */
  macroIs = new Int8Array(256).fill(-1);

  /** The hash of `s[start..end)` as `intern` expects it. */
  static hash(s: string, start: number, end: number): number {
    let h = 0;
    for (let k = start; k < end; k++) h = (Math.imul(h, 31) + s.charCodeAt(k)) | 0;
    return h;
  }

  /** The id of the identifier `s[start..end)`, whose `hash` the caller computed while reading it. */
  intern(s: string, start: number, end: number, hash: number): number {
    const len = end - start;
    for (let slot = hash & this.mask; ; slot = (slot + 1) & this.mask) {
      const v = this.slots[slot];
      // A fresh flat copy, not a slice of the text: V8 slices names of 13 characters or more (shorter
      // ones it copies), a slice the engine internalizes later (names are property keys in many
      // tables) turns thin, and thin strings make every text joined from them two-byte
      // (src/text/one-byte.ts); a slice also keeps the whole text alive.
      if (v === 0) return this.add(slot, s, start, end, hash);
      const id = v - 1;
      if (this.hashes[id] !== hash || this.lengths[id] !== len) continue;
      // Compared with the name's characters in the pool: a typed array reads faster than a string sliced from a large text.
      const chars = this.chars;
      const at = this.offsets[id];
      let k = 0;
      while (k < len && chars[at + k] === s.charCodeAt(start + k)) k++;
      if (k === len) return id;
    }
  }

  /** The id of a name given as a string. */
  internString(name: string): number {
    return this.intern(name, 0, name.length, IdentTable.hash(name, 0, name.length));
  }

  /** Enters `s[start..end)` at `slot`: its characters into the pool, and its one string. */
  private add(slot: number, s: string, start: number, end: number, hash: number): number {
    const len = end - start;
    const id = this.names.length;
    if (id === this.hashes.length) this.growIds(id * 2);
    this.hashes[id] = hash;
    if (this.used + len > this.chars.length) {
      const chars = new Uint16Array(Math.max(2 * this.chars.length, this.used + len));
      chars.set(this.chars);
      this.chars = chars;
    }
    const at = this.used;
    for (let k = 0; k < len; k++) this.chars[at + k] = s.charCodeAt(start + k);
    // Names of 13 characters or more are made from the pool's copy (a flat string of their own; see `intern`):
    // String.fromCharCode over the pool costs a fifth of what oneByte's encode and decode did (issue 30).
    this.names.push(
      len < 13
        ? s.slice(start, end)
        : len <= 4096
          ? String.fromCharCode.apply(null, this.chars.subarray(at, at + len) as unknown as number[])
          : oneByte(s.slice(start, end)),
    );
    this.offsets[id] = at;
    this.lengths[id] = len;
    this.used += len;
    this.slots[slot] = id + 1;
    // Keep the table at most half full.
    if (2 * this.names.length > this.slots.length) this.rehash();
    return id;
  }

  /**
   * Makes room for `names` names and `chars` characters of them at once: a large file's table is sized from its length
   * rather than doubled (and rehashed) a dozen times from its small start (190,000 names in the file of issue 30).
   */
  reserve(names: number, chars: number): void {
    if (names > this.hashes.length) this.growIds(names);
    if (chars > this.chars.length) {
      const pool = new Uint16Array(chars);
      pool.set(this.chars);
      this.chars = pool;
    }
    if (2 * names > this.slots.length) this.rehash(1 << (32 - Math.clz32(2 * names - 1)));
  }

  private growIds(size: number): void {
    const grow = <T extends Int32Array | Int8Array>(a: T, fill = 0): T => {
      const b = new (a.constructor as new (n: number) => T)(size);
      // A fresh typed array is zero: filled only past the copy, and only where the default is not (a fill touches every
      // page, and page faults are most of what a large table's growth costs).
      if (fill !== 0) b.fill(fill as never, a.length);
      b.set(a);
      return b;
    };
    this.hashes = grow(this.hashes);
    this.offsets = grow(this.offsets);
    this.lengths = grow(this.lengths);
    this.stamp = grow(this.stamp);
    this.macroIs = grow(this.macroIs, -1);
  }

  private rehash(size = this.slots.length * 2): void {
    this.slots = new Int32Array(size);
    this.mask = size - 1;
    for (let id = 0; id < this.names.length; id++) {
      let slot = this.hashes[id] & this.mask;
      while (this.slots[slot] !== 0) slot = (slot + 1) & this.mask;
      this.slots[slot] = id + 1;
    }
  }
}
