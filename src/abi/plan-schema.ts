/**
 * Small combinators that check untrusted JSON and build a fresh value from it: every field is
 * named, typed and ranged, unknown fields are refused, and nothing but what a check returned
 * leaves (no prototype, no extra keys, no strings where numbers belong).
 */

/** Where in the plan (a JSON path such as `kernels[0].args[2].offset`) and what is wrong. */
export class PlanError extends Error {
  constructor(
    readonly path: string,
    readonly problem: string,
  ) {
    super(`plan ${path || '(root)'}: ${problem}`);
    this.name = 'PlanError';
  }
}

export type Check<T> = (v: unknown, path: string) => T;

const show = (v: unknown): string => {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object') return 'an object';
  if (typeof v === 'string') return `the string ${JSON.stringify(v.length > 40 ? v.slice(0, 40) + '…' : v)}`;
  return `${typeof v} ${String(v)}`;
};

/** The largest byte count or offset a plan may hold: segments, structs and spec ids all far below it. */
export const PLAN_MAX = 2 ** 32;

/** A whole number from `min` to `max` (a safe integer: never a string, never a float). */
export const nat =
  (min = 0, max = PLAN_MAX): Check<number> =>
  (v, path) => {
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < min || v > max)
      throw new PlanError(path, `expected a whole number from ${min} to ${max}, got ${show(v)}`);
    return v;
  };

export const bool: Check<boolean> = (v, path) => {
  if (typeof v !== 'boolean') throw new PlanError(path, `expected true or false, got ${show(v)}`);
  return v;
};

/** A string of printable characters, at most `max` long. */
export const str =
  (max = 4096): Check<string> =>
  (v, path) => {
    if (typeof v !== 'string' || v.length > max || /[\u0000-\u001f\u007f]/.test(v))
      throw new PlanError(path, `expected a string of at most ${max} printable characters, got ${show(v)}`);
    return v;
  };

/** A C identifier (argument, field and kernel names; the packers quote them with JSON.stringify). */
export const ident: Check<string> = (v, path) => {
  if (typeof v !== 'string' || !/^[A-Za-z_$][A-Za-z0-9_$.]{0,1023}$/.test(v))
    throw new PlanError(path, `expected an identifier, got ${show(v)}`);
  return v;
};

export const oneOf =
  <const T extends string | number>(values: readonly T[]): Check<T> =>
  (v, path) => {
    if (!values.includes(v as T))
      throw new PlanError(path, `expected one of ${values.map((x) => JSON.stringify(x)).join(', ')}, got ${show(v)}`);
    return v as T;
  };

export const nullable =
  <T>(c: Check<T>): Check<T | null> =>
  (v, path) =>
    v === null ? null : c(v, path);

export const arrayOf =
  <T>(c: Check<T>, max = 1 << 20): Check<T[]> =>
  (v, path) => {
    if (!Array.isArray(v) || v.length > max)
      throw new PlanError(path, `expected a list of at most ${max}, got ${show(v)}`);
    return each(v, c, path);
  };

/** Every index, holes included (Array.prototype.map would skip a hole, and its check with it). */
function each<T>(v: readonly unknown[], c: Check<T>, path: string): T[] {
  const out: T[] = [];
  for (let i = 0; i < v.length; i++) out.push(c(v[i], `${path}[${i}]`));
  return out;
}

export const tuple =
  <T>(c: Check<T>, n: number): Check<T[]> =>
  (v, path) => {
    if (!Array.isArray(v) || v.length !== n) throw new PlanError(path, `expected a list of ${n}, got ${show(v)}`);
    return each(v, c, path);
  };

type Fields = Record<string, Check<unknown>>;
type Built<R extends Fields, O extends Fields> = { [K in keyof R]: ReturnType<R[K]> } & {
  [K in keyof O]?: ReturnType<O[K]>;
};

/**
 * An object with `required` and `optional` fields and no others; optional ones left out (or
 * null where the check does not take null) stay out of the result.
 */
export const object =
  <R extends Fields, O extends Fields = Record<never, never>>(required: R, optional: O = {} as O): Check<Built<R, O>> =>
  (v, path) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v))
      throw new PlanError(path, `expected an object, got ${show(v)}`);
    const o = v as Record<string, unknown>;
    const at = (k: string) => (path ? `${path}.${k}` : k);
    for (const k of Object.keys(o))
      if (!Object.hasOwn(required, k) && !Object.hasOwn(optional, k))
        throw new PlanError(at(k), `unknown field '${k}'`);
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(required)) {
      if (!Object.hasOwn(o, k)) throw new PlanError(at(k), `missing field '${k}'`);
      out[k] = required[k](o[k], at(k));
    }
    for (const k of Object.keys(optional))
      if (Object.hasOwn(o, k) && o[k] !== undefined) out[k] = optional[k](o[k], at(k));
    return out as Built<R, O>;
  };

/**
 * Keys a plan object has that its JSON form leaves out (as the JSON emitter does): the source type
 * (a compiler object), and a slot's `where` and `fill` (readPlan attaches them again).
 */
export type LeftOutOfJson = 'type' | 'where' | 'fill';

/** A type as plain data, for comparing: read-only marks dropped, intersections flattened, the keys above left out. */
export type JsonShape<T> = T extends string | number | boolean | null | undefined
  ? T
  : T extends readonly (infer E)[]
    ? JsonShape<E>[]
    : { -readonly [K in keyof T as K extends LeftOutOfJson ? never : K]: JsonShape<T[K]> };

/**
 * Exactly the same type (not merely assignable: an extra optional key, or one optional in one and required in the
 * other, differs).
 */
type Same<A, B> = (<X>() => X extends A ? 1 : 2) extends <X>() => X extends B ? 1 : 2 ? true : false;

/**
 * `true` where a schema's output `S` and a plan type `P` agree field by field, every level down
 * (kernels, slots, their value layouts), else a type naming both: `planReader` asks for a `true`
 * of this type, so its call fails `tsc` the day a field is added to the plan type and not to its
 * schema, or the other way round.
 */
export type SchemaAgrees<C, P> =
  C extends Check<infer S>
    ? Same<JsonShape<S>, JsonShape<P>> extends true
      ? true
      : { readonly schema: JsonShape<S>; readonly planType: JsonShape<P> }
    : never;

/**
 * `schema` as the reader of plan type `P`. `agrees` type-checks as `true` only where the compiler
 * found the schema's output and `P` the same (`SchemaAgrees`), so this one narrowing is checked:
 * what the value lacks is only what the JSON form leaves out (a slot's `where` and `fill`, which
 * the target's placement attaches next, and source types, which a read plan does not have).
 */
export function planReader<P>(): <C extends Check<unknown>>(schema: C, agrees: SchemaAgrees<C, P>) => Check<P> {
  return (schema) => schema as Check<unknown> as Check<P>;
}
