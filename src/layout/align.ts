/** `n` rounded up to a multiple of `a`. */
export const alignTo = (n: number, a: number): number => Math.ceil(n / a) * a;
