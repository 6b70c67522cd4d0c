// Runaway macro expansions of several shapes, for the expansion budget's time bound: the test
// (test/expansion-budget.test.ts) times each at a small and a 100 KB size; scripts/expansion-budget.ts
// times them larger and measures what real kernels need of the budget.

/** `#define A0 A1 A1` … `#define A{n-1} A{n} A{n}`: 2^n tokens from one `A0`. */
export function doublingChain(n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += `#define A${i} A${i + 1} A${i + 1}\n`;
  return s;
}

/** Pads a source with comments to about `bytes` characters (the budget grows with the main file's size). */
function padTo(src: string, bytes: number): string {
  const line = '// padding: the budget grows with the size of the main file, and so does the time it may take\n';
  const n = Math.max(0, Math.ceil((bytes - src.length) / line.length));
  return line.repeat(n) + src;
}

export interface RunawayCase {
  readonly name: string;
  /** The source at about `bytes` characters. */
  make(bytes: number): string;
}

export const RUNAWAY_CASES: readonly RunawayCase[] = [
  // Issue 32's slow input: a 2.6 KB chain of 130 doubling macros, its use cut short by junk (17 s before the fix).
  { name: 'doubling chain cut by junk', make: (b) => padTo(`${doublingChain(130)}A0 @@ junk\n`, b) },
  {
    name: 'doubling chain in a kernel parameter',
    make: (b) => padTo(`${doublingChain(130)}kernel void k(A0 x) {}\n`, b),
  },
  {
    name: 'doubling chain in a function body',
    make: (b) => padTo(`${doublingChain(130)}void f(void) { A0; }\nkernel void k(global int *p) {}\n`, b),
  },
  // Function-like: each level doubles its argument.
  {
    name: 'function-like doubling of arguments',
    make: (b) => {
      let s = '#define F0(x) x\n';
      for (let i = 1; i <= 40; i++) s += `#define F${i}(x) F${i - 1}(x x)\n`;
      return padTo(`${s}constant int c = F40(1);\nkernel void k(global int *p) {}\n`, b);
    },
  },
  // A parameter named 200 times, the macro called three deep in its own argument: 200^3 tokens of one substitution,
  // made whole before the budget was looked at (a 64-core fuzz campaign's input: 3.7 s and 620 MB at 2.6 KB).
  {
    name: 'one substitution of millions of tokens',
    make: (b) => padTo(`#define ID(x) ${'xID(x) '.repeat(200)}\nint v = ID(ID(ID(count)));\n`, b),
  },
  // Stringizing and pasting each level.
  {
    name: 'doubling with # and ##',
    make: (b) => {
      let s = '#define S(x) #x\n#define P(a, b) a ## b\n';
      for (let i = 0; i < 40; i++) s += `#define B${i} P(x, ${i}) S(B${i + 1}) B${i + 1} B${i + 1}\n`;
      return padTo(`${s}int v = B0;\n`, b);
    },
  },
];
