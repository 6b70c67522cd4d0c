import type { IrType, MemrefType } from '../../frontend/tinytc/ast.js';
import { PackError } from '../../pack/errors.js';
import { didYouMean } from '../../text/closest-name.js';
import { ArgProblems } from './arg-problems.js';
import { boolByte } from './bool-arg.js';
import { type HostArray, type HostLimits, ELEMENT_TYPES, bigEntry, describeJson, hostArray } from './host-data.js';

/** A tinytc argument read from JSON: logical values for TinytcKernel.launch, and the host arrays to print back. */
export interface TinytcArgs {
  /** By argument name: numbers/bigints for scalars, {data, shape, stride?} for memrefs, {group, offset?} for groups. */
  readonly values: Record<string, unknown>;
  /** Host arrays in argument order: `a` for a memref, `g[0]`, `g[1]`, … for group members. */
  readonly arrays: readonly { readonly arg: string; readonly member?: number; readonly data: HostArray }[];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const own = (o: Record<string, unknown>, k: string): unknown => (Object.hasOwn(o, k) ? o[k] : undefined);

const MEMREF_FORM =
  '{"type"?: "<f32|f64|i8|i16|i32|i64|index>", "data": [...] or "size": n, "shape": [...], "stride"?: [...]}';

/**
 * Reads `kernarg run --args` for a tinytc function: the element type of every memref is the
 * signature's (a "type" that disagrees is refused), 64-bit scalars take digit strings, and keys
 * are own properties only. Shapes, strides, offsets and sizes are checked by TinytcKernel.launch.
 */
export function readTinytcArgs(
  kernel: string,
  json: unknown,
  params: ReadonlyMap<string, IrType>,
  limits: HostLimits,
): TinytcArgs {
  if (!isObject(json))
    throw new PackError(
      kernel,
      '(arguments)',
      `the arguments file must hold an object mapping argument names to values, got ${describeJson(json)}`,
    );
  // Every argument is read apart and every mistake kept: all are thrown together at the end.
  const problems = new ArgProblems();
  const names = [...params.keys()];
  for (const k of Object.keys(json))
    if (!params.has(k))
      problems.add(
        new PackError(
          kernel,
          k,
          `@${kernel} has no argument '${k}' (it takes ${names.join(', ') || 'none'})${didYouMean(
            k,
            names.filter((n) => !Object.hasOwn(json, n)),
          )}`,
        ),
      );
  const values: Record<string, unknown> = Object.create(null);
  const arrays: { arg: string; member?: number; data: HostArray }[] = [];
  const memref = (t: MemrefType, m: unknown, where: string, arg: string, member?: number) => {
    if (!isObject(m) || !Array.isArray(own(m, 'shape')))
      throw new PackError(kernel, where, `a memref takes ${MEMREF_FORM}, got ${describeJson(m)}`);
    for (const k of Object.keys(m))
      if (!['type', 'data', 'size', 'shape', 'stride'].includes(k))
        throw new PackError(kernel, `${where}.${k}`, `unexpected key '${k}' (a memref takes ${MEMREF_FORM})`);
    const given = own(m, 'type');
    if (given !== undefined && given !== t.element) {
      const known = typeof given === 'string' && ELEMENT_TYPES.has(given);
      throw new PackError(
        kernel,
        `${where}.type`,
        known
          ? `${given} data for a memref of ${t.element}`
          : `unknown element type ${describeJson(given)}; this memref holds ${t.element}`,
      );
    }
    const data = hostArray(kernel, where, t.element, own(m, 'data'), own(m, 'size'), limits);
    arrays.push({ arg, ...(member !== undefined ? { member } : {}), data });
    const stride = own(m, 'stride');
    return { data, shape: own(m, 'shape'), ...(stride !== undefined ? { stride } : {}) };
  };
  const read = (name: string, type: IrType, v: unknown) => {
    switch (type.kind) {
      case 'scalar':
        values[name] =
          type.name === 'i1'
            ? boolByte(kernel, name, v)
            : type.name === 'i64' || type.name === 'index'
              ? typeof v === 'string' || typeof v === 'number'
                ? bigEntry(kernel, name, v, { signed: true }, type.name)
                : v
              : v;
        break;
      case 'memref':
        if (!isObject(v) || !Object.hasOwn(v, 'memref') || Object.keys(v).length !== 1)
          throw new PackError(kernel, name, `a memref takes {"memref": ${MEMREF_FORM}}, got ${describeJson(v)}`);
        values[name] = memref(type, v.memref, name, name);
        break;
      case 'group': {
        if (!isObject(v) || !Array.isArray(own(v, 'group')) || (v.group as unknown[]).length === 0)
          throw new PackError(
            kernel,
            name,
            `a group takes {"group": [<memref>, ...], "offset"?: n}, got ${describeJson(v)}`,
          );
        for (const k of Object.keys(v))
          if (k !== 'group' && k !== 'offset')
            throw new PackError(kernel, `${name}.${k}`, `unexpected key '${k}' (a group takes "group" and "offset")`);
        // A member is written as everywhere else, {"memref": {…}}, or as the bare memref object.
        const member = (m: unknown) =>
          isObject(m) && Object.hasOwn(m, 'memref') && Object.keys(m).length === 1 ? m.memref : m;
        const group = (v.group as unknown[]).map((m, i) => memref(type.memref, member(m), `${name}[${i}]`, name, i));
        values[name] = { group, ...(own(v, 'offset') !== undefined ? { offset: v.offset } : {}) };
        break;
      }
      case 'void':
        throw new PackError(kernel, name, 'a void argument cannot be given');
    }
  };
  for (const [name, type] of params) {
    if (problems.full) break;
    if (!Object.hasOwn(json, name)) problems.add(new PackError(kernel, name, 'missing'));
    else problems.check(() => read(name, type, json[name]));
  }
  problems.throwIfAny();
  return { values, arrays };
}
