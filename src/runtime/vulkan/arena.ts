// Native memory for the structures Vulkan reads and writes. Structures are encoded once into an
// arena (koffi computes their layout) and passed by address; the per-launch path only rewrites
// numbers in place, so it allocates nothing.
import { koffi } from '../ffi.js';

type KoffiType = Parameters<ReturnType<typeof koffi>['sizeof']>[0];

export class Arena {
  readonly base: bigint;
  readonly bytes: Uint8Array;
  readonly view: DataView;
  private top = 0;
  private freed = false;

  constructor(readonly size: number) {
    this.base = koffi().alloc('uint8_t', size) as unknown as bigint;
    const ab = koffi().view(this.base as never, size);
    this.bytes = new Uint8Array(ab);
    this.view = new DataView(ab);
    this.bytes.fill(0);
  }

  /** Reserves `n` zeroed bytes aligned to `align`; returns their address. */
  alloc(n: number, align = 8): bigint {
    const at = Math.ceil(this.top / align) * align;
    if (at + n > this.size) throw new Error(`internal: arena of ${this.size} bytes exhausted`);
    this.top = at + n;
    this.bytes.fill(0, at, at + n);
    return this.base + BigInt(at);
  }

  /** Byte offset of an address inside the arena. */
  at(addr: bigint): number {
    return Number(addr - this.base);
  }

  /** Encodes a structure (or an array of them) and returns its address. */
  put(type: KoffiType, value: unknown): bigint {
    const addr = this.alloc(koffi().sizeof(type), koffi().alignof(type));
    koffi().encode(addr as never, type as never, value as never);
    return addr;
  }

  array(type: KoffiType, values: readonly unknown[]): bigint {
    if (values.length === 0) return 0n;
    const size = koffi().sizeof(type);
    const addr = this.alloc(size * values.length, koffi().alignof(type));
    values.forEach((v, i) => koffi().encode((addr + BigInt(i * size)) as never, type as never, v as never));
    return addr;
  }

  read<T>(addr: bigint, type: KoffiType): T {
    return koffi().decode(addr as never, type as never) as T;
  }

  cstr(s: string): bigint {
    const b = Buffer.from(`${s}\0`, 'utf8');
    const addr = this.alloc(b.length, 1);
    this.bytes.set(b, this.at(addr));
    return addr;
  }

  /** An array of C strings (char **). */
  strings(list: readonly string[]): bigint {
    if (list.length === 0) return 0n;
    const ptrs = list.map((s) => this.cstr(s));
    const addr = this.alloc(8 * ptrs.length);
    ptrs.forEach((p, i) => this.view.setBigUint64(this.at(addr) + 8 * i, p, true));
    return addr;
  }

  u32(addr: bigint): number {
    return this.view.getUint32(this.at(addr), true);
  }

  u64(addr: bigint): bigint {
    return this.view.getBigUint64(this.at(addr), true);
  }

  /** Forgets everything after `mark` (from `top()`). */
  reset(mark = 0): void {
    this.top = mark;
  }

  mark(): number {
    return this.top;
  }

  free(): void {
    if (this.freed) return;
    this.freed = true;
    koffi().free(this.base as never);
  }
}
