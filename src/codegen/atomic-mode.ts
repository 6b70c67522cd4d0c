/** How an atomic update combines: `*p = v` (beta 0), `*p += v` (beta 1), or `*p = v + beta * *p`. */
export type AtomicMode = 'store' | 'add' | 'update';

/** The mode of an atomic `C := v + beta C`, from beta's value when it is an immediate. */
export const atomicMode = (betaImm: number | undefined): AtomicMode =>
  betaImm === 0 ? 'store' : betaImm === 1 ? 'add' : 'update';
