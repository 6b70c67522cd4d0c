// Sizes and alignments of LLVM IR types under clang's spir64 data layout, for reading the parameter
// list of a `define` line: what clang passes (a value's LLVM type, a byval struct's type, a pointer)
// is the oracle for the size and alignment kernarg gives a by-value slot.

/** spir64's `target datalayout`: i64 aligned to 8, and the vector widths it names (bits → align bytes). */
const SPIR64_VECTOR_ALIGN: Record<number, number> = {
  16: 2,
  24: 4,
  32: 4,
  48: 8,
  96: 16,
  192: 32,
  256: 32,
  512: 64,
  1024: 128,
};

export interface LlvmLayout {
  readonly size: number;
  readonly align: number;
}

const roundUp = (n: number, a: number) => Math.ceil(n / a) * a;
const pow2Ceil = (n: number) => 2 ** Math.ceil(Math.log2(Math.max(1, n)));

/** A tiny reader of one LLVM type at a time; named struct types come from `%name = type ...` lines. */
export class LlvmTypes {
  private readonly named = new Map<string, string>();
  private readonly cache = new Map<string, LlvmLayout>();

  constructor(module: string) {
    for (const m of module.matchAll(/^(%[\w."$-]+) = type (.*)$/gm)) this.named.set(m[1], m[2]);
  }

  /** The layout of the type spelled at the start of `text`, and how many characters it took. */
  parse(text: string): { layout: LlvmLayout; length: number } {
    let i = 0;
    const skip = () => {
      while (text[i] === ' ') i++;
    };
    const type = (): LlvmLayout => {
      skip();
      let m: RegExpExecArray | null;
      const rest = text.slice(i);
      if ((m = /^i(\d+)/.exec(rest))) {
        i += m[0].length;
        const bits = Number(m[1]);
        const bytes = Math.ceil(bits / 8);
        const align = bits === 1 ? 1 : Math.min(8, pow2Ceil(bytes));
        return { size: roundUp(bytes, align), align };
      }
      if ((m = /^(half|float|double)\b/.exec(rest))) {
        i += m[0].length;
        const s = { half: 2, float: 4, double: 8 }[m[1] as 'half' | 'float' | 'double'];
        return { size: s, align: s };
      }
      if ((m = /^ptr( addrspace\(\d+\))?/.exec(rest))) {
        i += m[0].length;
        return { size: 8, align: 8 };
      }
      if ((m = /^<(\d+) x /.exec(rest))) {
        i += m[0].length;
        const n = Number(m[1]);
        const start = i;
        const e = type();
        const elemBits = /^\s*i(\d+)/.exec(text.slice(start))?.[1];
        const bits = n * (elemBits ? Number(elemBits) : e.size * 8);
        skip();
        i++; // '>'
        const store = Math.ceil(bits / 8);
        const align = SPIR64_VECTOR_ALIGN[bits] ?? pow2Ceil(store);
        return { size: roundUp(store, align), align };
      }
      if ((m = /^\[(\d+) x /.exec(rest))) {
        i += m[0].length;
        const e = type();
        skip();
        i++; // ']'
        return { size: Number(m[1]) * e.size, align: e.align };
      }
      const packed = rest.startsWith('<{');
      if (packed || rest.startsWith('{')) {
        i += packed ? 2 : 1;
        let size = 0;
        let align = 1;
        skip();
        while (text[i] !== '}') {
          const f = type();
          const a = packed ? 1 : f.align;
          size = roundUp(size, a) + f.size;
          align = Math.max(align, a);
          skip();
          if (text[i] === ',') i++;
          skip();
        }
        i += packed ? 2 : 1;
        return { size: roundUp(size, align), align };
      }
      if ((m = /^%("[^"]*"|[\w.$-]+)/.exec(rest))) {
        i += m[0].length;
        return this.layoutOfNamed(m[0]);
      }
      throw new Error(`an LLVM type this reader does not know at '${rest.slice(0, 40)}'`);
    };
    const layout = type();
    return { layout, length: i };
  }

  private layoutOfNamed(name: string): LlvmLayout {
    const hit = this.cache.get(name);
    if (hit) return hit;
    const body = this.named.get(name);
    if (body === undefined) throw new Error(`no type ${name} in the module`);
    const l = this.parse(body).layout;
    this.cache.set(name, l);
    return l;
  }
}

/** One parameter of a `define`: its type's layout, and the byval type and `align` attribute when present. */
export interface LlvmParam {
  readonly type: string;
  readonly layout: LlvmLayout;
  readonly byval?: LlvmLayout;
  readonly alignAttr?: number;
}

/** Splits a parameter list at its top-level commas. */
function splitTop(list: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < list.length; i++) {
    const c = list[i];
    if (c === '(' || c === '[' || c === '{' || c === '<') depth++;
    else if (c === ')' || c === ']' || c === '}' || c === '>') depth--;
    else if (c === ',' && depth === 0) {
      out.push(list.slice(start, i));
      start = i + 1;
    }
  }
  if (list.slice(start).trim()) out.push(list.slice(start));
  return out.map((s) => s.trim());
}

/** The parameters of every `define ... spir_kernel void @name(...)` of a module, by kernel name. */
export function kernelParams(module: string): Map<string, LlvmParam[]> {
  const types = new LlvmTypes(module);
  const out = new Map<string, LlvmParam[]>();
  for (const m of module.matchAll(/^define [^@]*spir_kernel void @"?([\w.$]+)"?\((.*)\) #\d+/gm)) {
    out.set(
      m[1],
      splitTop(m[2]).map((p) => {
        const { layout, length } = types.parse(p);
        const attrs = p.slice(length);
        const byvalAt = attrs.indexOf('byval(');
        const byval = byvalAt >= 0 ? types.parse(attrs.slice(byvalAt + 6)).layout : undefined;
        const alignAttr = /\balign (\d+)/.exec(attrs)?.[1];
        return {
          type: p.slice(0, length).trim(),
          layout,
          ...(byval ? { byval } : {}),
          ...(alignAttr ? { alignAttr: Number(alignAttr) } : {}),
        };
      }),
    );
  }
  return out;
}
