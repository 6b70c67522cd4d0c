// The text of a `kernarg run --args` file, read for places: where its JSON goes wrong (JSON.parse
// says "at position 135", or in newer engines not even that), and where each value the reader
// refuses is written, so every mistake is reported at line:col of the file. Only called once
// something is wrong: JSON.parse reads a good file faster than any scanner written here could.

/** A JSON syntax error: where it is (offsets into the text) and what was expected. */
export interface JsonSyntaxError {
  readonly start: number;
  readonly end: number;
  readonly message: string;
}

/** A value's place: its first character and one past its last. */
export interface JsonPlace {
  readonly start: number;
  readonly end: number;
}

type Key = string | number;
type Visit = (path: readonly Key[], start: number, end: number) => boolean | void;

interface Frame {
  readonly array: boolean;
  readonly start: number;
  index: number;
  members: number;
}

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const WORD = /[A-Za-z_$][\w$]*/y;

/**
 * Scans JSON text as JSON.parse reads it (RFC 8259: no comments, no trailing commas, strings in
 * double quotes), without recursion, so no nesting depth overflows the stack. `visit` sees every
 * value's path and place (a container after its members); returning true stops the scan. Returns
 * the first syntax error, or undefined for valid JSON (or a scan `visit` stopped).
 */
export function scanJson(text: string, visit?: Visit): JsonSyntaxError | undefined {
  const n = text.length;
  let i = 0;
  const frames: Frame[] = [];
  const path: Key[] = [];
  const err = (at: number, message: string): JsonSyntaxError => ({
    start: Math.min(at, n),
    end: Math.min(at + 1, n),
    message,
  });
  const ws = () => {
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) break;
      i++;
    }
  };
  /** A string from its opening quote; its end, or an error. */
  const string = (): number | JsonSyntaxError => {
    const start = i++;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 0x22) return ++i;
      if (c === 0x5c) {
        const e = text[i + 1];
        if (e === 'u') {
          if (!/^[0-9A-Fa-f]{4}$/.test(text.slice(i + 2, i + 6))) return err(i, "'\\u' takes four hex digits");
          i += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i += 2;
        else return err(i, `invalid escape '\\${e ?? ''}' in a string`);
        continue;
      }
      if (c < 0x20)
        return err(
          i,
          c === 0x0a || c === 0x0d
            ? 'a string must end on the line it begins (missing closing ")'
            : 'control character in a string (write it as \\u00XX)',
        );
      i++;
    }
    return err(start, 'missing closing " of this string');
  };
  /** An object member's key and its colon; an error, or undefined with the key on the path. */
  const key = (f: Frame): JsonSyntaxError | undefined => {
    ws();
    if (text[i] !== '"') {
      if (text[i] === '}') return err(i, "expected a key after ',' (JSON allows no trailing comma)");
      if (text[i] === "'") return err(i, 'JSON keys take double quotes, not single');
      return err(i, i < n ? 'expected a key in double quotes' : 'expected a key, found the end of the text');
    }
    const start = i;
    const end = string();
    if (typeof end !== 'number') return end;
    const k = JSON.parse(text.slice(start, end)) as string;
    if (f.members++ === 0) path.push(k);
    else path[path.length - 1] = k;
    ws();
    if (text[i] !== ':') return err(i, `expected ':' after the key ${text.slice(start, end)}`);
    i++;
    return undefined;
  };
  let expectValue = true;
  for (;;) {
    ws();
    if (expectValue) {
      if (i >= n)
        return err(
          i,
          frames.length ? 'expected a value, found the end of the text' : 'the text is empty: expected a JSON value',
        );
      const c = text[i];
      const start = i;
      if (c === '{' || c === '[') {
        const f: Frame = { array: c === '[', start, index: 0, members: 0 };
        frames.push(f);
        i++;
        ws();
        if (text[i] === (f.array ? ']' : '}')) {
          i++;
          frames.pop();
          if (visit?.(path, start, i)) return undefined;
          expectValue = false;
          continue;
        }
        if (f.array) {
          f.members = 1;
          path.push(0);
        } else {
          const e = key(f);
          if (e) return e;
        }
        continue;
      }
      if (c === '"') {
        const end = string();
        if (typeof end !== 'number') return end;
      } else if (c === '-' || (c >= '0' && c <= '9')) {
        NUMBER.lastIndex = i;
        const m = NUMBER.exec(text);
        if (!m || /[0-9.eE+-]/.test(text[i + m[0].length] ?? ''))
          return err(i, 'invalid number (JSON numbers have no leading zeros, no trailing dot, no leading +)');
        i += m[0].length;
      } else {
        WORD.lastIndex = i;
        const w = WORD.exec(text)?.[0];
        if (w === 'true' || w === 'false' || w === 'null') i += w.length;
        else if (w === 'NaN' || w === 'Infinity') return err(i, `${w} is not JSON: write it as the string "${w}"`);
        else if (c === "'") return err(i, 'JSON strings take double quotes, not single');
        else if (c === ']' || c === '}')
          return err(
            i,
            frames.length && text.slice(0, i).trimEnd().endsWith(',')
              ? `expected a value after ',' (JSON allows no trailing comma)`
              : `expected a value, found '${c}'`,
          );
        else return err(i, `expected a value, found ${w ? `'${w}'` : `'${c}'`}`);
      }
      if (visit?.(path, start, i)) return undefined;
      expectValue = false;
      continue;
    }
    const f = frames[frames.length - 1];
    if (!f) return i < n ? err(i, 'unexpected text after the JSON value') : undefined;
    const c = text[i];
    if (c === ',') {
      i++;
      if (f.array) {
        path[path.length - 1] = ++f.index;
      } else {
        const e = key(f);
        if (e) return e;
      }
      expectValue = true;
      continue;
    }
    if (c === (f.array ? ']' : '}')) {
      i++;
      frames.pop();
      path.pop();
      if (visit?.(path, f.start, i)) return undefined;
      continue;
    }
    if (i >= n) return err(f.start, `this ${f.array ? "'['" : "'{'"} is never closed`);
    return err(
      i,
      f.array ? "expected ',' or ']' after an array element" : "expected ',' or '}' after an object member",
    );
  }
}

/** A reader's path (`a.data[3]`, `s.inner.x`, `g[0].shape[1]`) as keys and indices. */
export function pathKeys(path: string): Key[] {
  const out: Key[] = [];
  for (const m of path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) out.push(m[2] !== undefined ? Number(m[2]) : m[1]);
  return out;
}

/**
 * How many keys of a reader's path a place in the JSON covers, or -1 when it is off the path. The
 * tinytc reader names a memref `a` and its members `a.data`, `g[0]`, where the file writes
 * `a.memref.data` and `g.group[0]`: a `memref` or `group` key the path does not name is stepped over.
 */
function covered(json: readonly Key[], want: readonly Key[]): number {
  let w = 0;
  for (const k of json) {
    if (w < want.length && k === want[w]) w++;
    else if (k !== 'memref' && k !== 'group') return -1;
  }
  return w;
}

/**
 * The place of each reader path in the text: the value itself, or the nearest enclosing value
 * the file has (a missing key is placed at its object). Undefined for a text that is not JSON.
 */
export function placesOf(text: string, paths: readonly string[]): (JsonPlace | undefined)[] {
  const wants = paths.map(pathKeys);
  const best: { place: JsonPlace; depth: number; covered: number }[] = [];
  const longest = Math.max(0, ...wants.map((w) => w.length));
  const error = scanJson(text, (path, start, end) => {
    if (path.length > longest + 2) return false;
    for (let t = 0; t < wants.length; t++) {
      const c = covered(path, wants[t]);
      if (c < 0) continue;
      const b = best[t];
      // More of the path is better; at equal cover, the outer value (`{"memref": …}`, not its inside).
      if (!b || c > b.covered || (c === b.covered && path.length < b.depth)) {
        best[t] = { place: { start, end }, depth: path.length, covered: c };
      }
    }
    return false;
  });
  return error ? paths.map(() => undefined) : wants.map((_, t) => best[t]?.place);
}
