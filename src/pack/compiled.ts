import { notALayout } from './errors.js';
import type { ValueLayout } from '../layout/value-layout.js';
import { writeInterpreted } from './interpreted.js';
import { intRange } from './scalars.js';

export type Writer = (view: DataView, offset: number, value: unknown, path: string) => void;

const cache = new WeakMap<ValueLayout, Writer>();

/** Object.prototype.hasOwnProperty, which generated code calls as HOP.call(object, key). */
export const HOP = Object.prototype.hasOwnProperty;
/**
 * The smallest 64-bit signed integer, which generated code reads as I64_MIN: spelled as a literal
 * it would be a negation, which makes a new BigInt every time it runs.
 */
export const I64_MIN = -(1n << 63n);
let evalAllowed: boolean | undefined;

function canEval(): boolean {
  if (evalAllowed === undefined) {
    try {
      evalAllowed = new Function('return 1')() === 1;
    } catch {
      evalAllowed = false;
    }
  }
  return evalAllowed;
}

/** DataView setters by encoding and width (bool: numbers only; booleans take the interpreted path). */
const SETTERS: Record<string, [string, string]> = {
  'int:1': ['setInt8', ''],
  'uint:1': ['setUint8', ''],
  'bool:1': ['setUint8', ''],
  'int:2': ['setInt16', ', true'],
  'uint:2': ['setUint16', ', true'],
  'int:4': ['setInt32', ', true'],
  'uint:4': ['setUint32', ', true'],
  'float:4': ['setFloat32', ', true'],
  'float:8': ['setFloat64', ', true'],
};

/**
 * A number that may be spliced into generated source: a safe integer, nothing else. Plans read
 * from JSON are validated before they reach a packer; this is the second lock on the same door.
 */
export function checkedInteger(x: unknown, what: string): number {
  if (typeof x !== 'number' || !Number.isSafeInteger(x))
    throw new TypeError(
      `generated packer: ${what} must be a safe integer, got ${typeof x === 'string' ? JSON.stringify(x) : String(x)}`,
    );
  return x;
}

/**
 * Straight-line JS for one layout: every field at a constant offset. The fast path handles
 * plain numbers in range; anything else (bigints, halves, 64-bit integers, wrong shapes) leaves
 * it and the interpreted writer writes the value or throws the precise error.
 */
function generate(layout: ValueLayout): string {
  const lines: string[] = [];
  emitWriter(layout, 'view', 'offset', 'value', lines, { n: 0 });
  return `fast: {\n${lines.join('\n')}\nreturn;\n}\ninterp(view, offset, layout, value, path);`;
}

/**
 * Appends the fast-path statements that write `val` in layout `l` at `offset + off` of `view`;
 * any mismatch executes `break fast`, so the caller's slow path takes over.
 */
export function emitWriter(
  layout: ValueLayout,
  view: string,
  offset: string,
  value: string,
  lines: string[],
  counter: { n: number },
): void {
  // Straight-line code grows with the scalars written: past a few thousand, the interpreted writer (a loop) is the
  // better path.
  if (scalarCount(layout, MAX_UNROLLED) > MAX_UNROLLED) {
    lines.push('break fast;');
    return;
  }
  const tmp = () => `t${checkedInteger(counter.n++, 'a temporary number')}`;
  const emit = (l: ValueLayout, offset0: number, val: string) => {
    const off = checkedInteger(offset0, 'an offset');
    switch (l.kind) {
      case 'scalar': {
        const size = checkedInteger(l.size, 'a scalar size');
        const signed = l.encoding === 'int';
        const integer = l.encoding === 'int' || l.encoding === 'uint' || l.encoding === 'bool';
        const key = `${l.encoding}:${size}`;
        const setter = Object.hasOwn(SETTERS, key) ? SETTERS[key] : undefined;
        if (integer && size === 8) {
          const [lo, hi] = intRange(8, signed);
          // A safe-integer number goes in as two 32-bit halves, so no BigInt is made per launch.
          lines.push(
            `if (typeof ${val} === 'number') {`,
            `if (!Number.isSafeInteger(${val})${signed ? '' : ` || ${val} < 0`}) break fast;`,
          );
          lines.push(
            `${view}.setUint32(${offset} + ${off}, ${val} >>> 0, true);`,
            `${view}.setUint32(${offset} + ${off + 4}, Math.floor(${val} / 4294967296) >>> 0, true);`,
            '} else {',
          );
          lines.push(
            `if (typeof ${val} !== 'bigint' || ${val} < ${signed ? 'I64_MIN' : `${lo}n`} || ${val} > ${hi}n) break ` +
              `fast;`,
          );
          lines.push(`${view}.${signed ? 'setBigInt64' : 'setBigUint64'}(${offset} + ${off}, ${val}, true);`, '}');
          return;
        }
        if (!setter) {
          lines.push(`break fast;`);
          return;
        }
        if (integer) {
          const [lo, hi] = intRange(size, signed);
          lines.push(
            `if (typeof ${val} !== 'number' || !Number.isInteger(${val}) || ${val} < ${lo} || ${val} > ${hi}) break ` +
              `fast;`,
          );
        } else {
          lines.push(
            `if (typeof ${val} !== 'number'${size === 4 ? ` || (${val} > 3.4028234663852886e38 && ${val} !== Infinity) || (${val} < -3.4028234663852886e38 && ${val} !== -Infinity)` : ''}) break fast;`,
          );
        }
        lines.push(`${view}.${setter[0]}(${offset} + ${off}, ${val}${setter[1]});`);
        return;
      }
      case 'vector':
      case 'array': {
        const t = tmp();
        lines.push(`const ${t} = ${val};`);
        lines.push(
          `if (!(Array.isArray(${t}) || (ArrayBuffer.isView(${t}) && !(${t} instanceof DataView))) || ${t}.length ` +
            `!== ${checkedInteger(l.length, 'a length')}) break fast;`,
        );
        const elem: ValueLayout =
          l.kind === 'vector'
            ? { kind: 'scalar', scalar: l.element, encoding: l.encoding, size: l.elementSize, align: 1 }
            : l.element;
        const stride = checkedInteger(l.kind === 'vector' ? l.elementSize : l.stride, 'a stride');
        for (let i = 0; i < l.length; i++) {
          const e = tmp();
          lines.push(`const ${e} = ${t}[${i}];`);
          emit(elem, off + i * stride, e);
        }
        return;
      }
      case 'record': {
        if (l.tagKind === 'union' || l.fields.some((f) => f.bitWidth !== undefined || f.name === null)) {
          lines.push('break fast;');
          return;
        }
        const t = tmp();
        lines.push(`const ${t} = ${val};`);
        lines.push(
          `if (typeof ${t} !== 'object' || ${t} === null || Array.isArray(${t}) || ArrayBuffer.isView(${t})) break ` +
            `fast;`,
        );
        const c = tmp();
        // A record without fields takes an object with no keys (a switch without cases is no statement).
        if (l.fields.length === 0) {
          lines.push(`for (const k in ${t}) break fast;`);
          return;
        }
        // Exactly the field names, each the value's own key (HOP.call on the for-in key is what V8 optimises).
        lines.push(
          `let ${c} = 0;`,
          `for (const k in ${t}) {`,
          `  if (!HOP.call(${t}, k)) break fast;`,
          '  switch (k) {',
        );
        for (const f of l.fields) lines.push(`    case ${JSON.stringify(f.name)}:`);
        lines.push(
          `      ${c}++; break;`,
          '    default: break fast;',
          '  }',
          '}',
          `if (${c} !== ${checkedInteger(l.fields.length, 'a field count')}) break fast;`,
        );
        for (const f of l.fields) {
          const e = tmp();
          lines.push(`const ${e} = ${t}[${JSON.stringify(f.name)}];`, `if (${e} === undefined) break fast;`);
          emit(f.layout, off + checkedInteger(f.offset, 'a field offset'), e);
        }
        return;
      }
      default:
        notALayout(l);
    }
  };
  emit(layout, 0, value);
}

/** Scalars a compiled writer unrolls at the most; larger values are written by the interpreted writer. */
export const MAX_UNROLLED = 4096;

/** The scalars a layout holds, counting no further than `cap` + 1. */
export function scalarCount(l: ValueLayout, cap: number): number {
  switch (l.kind) {
    case 'scalar':
      return 1;
    case 'vector':
      return l.length;
    case 'array': {
      const each = scalarCount(l.element, cap);
      return each === 0 ? 0 : Math.min(cap + 1, each * l.length);
    }
    case 'record': {
      let n = 0;
      for (const f of l.fields) if ((n += scalarCount(f.layout, cap)) > cap) return cap + 1;
      return n;
    }
    default:
      return notALayout(l);
  }
}

export function codegenAllowed(): boolean {
  return canEval();
}

/** The writer for a layout: compiled once and cached, or the interpreted one where code generation is not allowed. */
export function writerFor(layout: ValueLayout, allowCompile = true): Writer {
  if (!allowCompile || !canEval() || scalarCount(layout, MAX_UNROLLED) > MAX_UNROLLED)
    return (view, offset, value, path) => writeInterpreted(view, offset, layout, value, path);
  let w = cache.get(layout);
  if (!w) {
    const body = generate(layout);
    const make = new Function(
      'layout',
      'interp',
      'HOP',
      'I64_MIN',
      `return function write(view, offset, value, path) {\n${body}\n};`,
    );
    w = make(layout, writeInterpreted, HOP, I64_MIN) as Writer;
    cache.set(layout, w);
  }
  return w;
}

/** The generated source for a layout, for tests and for reading. */
export function writerSource(layout: ValueLayout): string {
  return generate(layout);
}
