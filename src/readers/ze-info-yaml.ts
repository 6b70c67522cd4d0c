// The YAML subset llvm::yaml writes for a zebin's `.ze_info` (what ocloc emits): block mappings
// and sequences by indentation, `- ` items, plain, 'single-quoted' and "double-quoted" scalars,
// flow sequences of scalars (`[ 8, 1, 1 ]`), `---` and `...`. No anchors, tags, multi-line
// scalars or flow mappings: IGC writes none, and anything else is a diagnostic, not a guess.
import { Messages } from '../diagnostics/messages.js';
import { fail } from './byte-error.js';

export type YamlNode = YamlScalar | YamlSeq | YamlMap;
export interface YamlScalar {
  readonly kind: 'scalar';
  readonly value: string;
  readonly at: number;
}
export interface YamlSeq {
  readonly kind: 'seq';
  readonly items: readonly YamlNode[];
  readonly at: number;
}
export interface YamlMap {
  readonly kind: 'map';
  readonly entries: readonly { readonly key: string; readonly value: YamlNode }[];
  readonly at: number;
}

interface Line {
  indent: number;
  text: string;
  readonly number: number;
  /** Byte of the file where `text` starts. */ at: number;
}

const MAX_DEPTH = 64;
const UTF8 = new TextDecoder('utf-8', { fatal: false });

/** The document of a `.ze_info` section; `base` is the section's offset in the file, so messages name file bytes. */
export function parseZeInfoYaml(bytes: Uint8Array, base: number): YamlNode {
  const lines: Line[] = [];
  let start = 0;
  let number = 0;
  for (let i = 0; i <= bytes.length; i++) {
    if (i < bytes.length && bytes[i] !== 0x0a) continue;
    number++;
    const raw = UTF8.decode(bytes.subarray(start, i)).replace(/\r$/, '');
    const indent = raw.length - raw.trimStart().length;
    const text = raw.trim();
    if (raw.slice(0, indent).includes('\t'))
      fail(Messages.zeInfoSyntax, base + start, number, 'a tab in the indentation');
    if (text !== '' && !text.startsWith('#') && text !== '---' && text !== '...')
      lines.push({ indent, text, number, at: base + start + indent });
    start = i + 1;
  }
  const p = new Parser(lines);
  if (!lines.length) return { kind: 'map', entries: [], at: base };
  const doc = p.block(lines[0].indent, 0);
  if (p.i < lines.length)
    fail(
      Messages.zeInfoSyntax,
      lines[p.i].at,
      lines[p.i].number,
      'indented less than the document, or more than its parent allows',
    );
  return doc;
}

class Parser {
  i = 0;
  constructor(private readonly lines: Line[]) {}

  block(indent: number, depth: number): YamlNode {
    const l = this.lines[this.i];
    if (depth > MAX_DEPTH) fail(Messages.zeInfoSyntax, l.at, l.number, `nested deeper than ${MAX_DEPTH} levels`);
    return l.text === '-' || l.text.startsWith('- ') ? this.seq(indent, depth) : this.map(indent, depth);
  }

  private seq(indent: number, depth: number): YamlSeq {
    const at = this.lines[this.i].at;
    const items: YamlNode[] = [];
    while (this.i < this.lines.length) {
      const l = this.lines[this.i];
      if (l.indent !== indent || !(l.text === '-' || l.text.startsWith('- '))) break;
      const rest = l.text.slice(1).trimStart();
      if (rest === '') {
        this.i++;
        items.push(this.nested(indent, depth, l));
        continue;
      }
      if (!isMapEntry(rest)) {
        this.i++;
        items.push(scalar(rest, l.at + (l.text.length - rest.length), l));
        continue;
      }
      // `- key: value`: the item is a mapping whose first key sits after the dash.
      const shift = l.text.length - rest.length;
      l.indent += shift;
      l.at += shift;
      l.text = rest;
      items.push(this.map(l.indent, depth + 1));
    }
    return { kind: 'seq', items, at };
  }

  private map(indent: number, depth: number): YamlMap {
    const at = this.lines[this.i].at;
    const entries: { key: string; value: YamlNode }[] = [];
    while (this.i < this.lines.length) {
      const l = this.lines[this.i];
      if (l.indent < indent) break;
      if (l.indent > indent) fail(Messages.zeInfoSyntax, l.at, l.number, 'indented more than the keys before it');
      if (l.text.startsWith('- ') || l.text === '-') break;
      const m = /^('(?:[^']|'')*'|[^:'"#][^:]*?)\s*:(?:\s+(.*))?$/.exec(l.text);
      if (!m) fail(Messages.zeInfoSyntax, l.at, l.number, `expected 'key: value', got '${l.text.slice(0, 40)}'`);
      const key = m[1].startsWith("'") ? m[1].slice(1, -1).replace(/''/g, "'") : m[1];
      this.i++;
      const value =
        m[2] !== undefined && m[2] !== ''
          ? scalarOrFlow(m[2], l.at + l.text.length - m[2].length, l)
          : this.nested(indent, depth, l, true);
      entries.push({ key, value });
    }
    return { kind: 'map', entries, at };
  }

  /** The block under a `key:` or `-` line: more indented, or (a key's sequence) at the key's own indent. */
  private nested(indent: number, depth: number, owner: Line, sameIndentSeq = false): YamlNode {
    const next = this.lines[this.i];
    if (
      next &&
      (next.indent > indent ||
        (sameIndentSeq && next.indent === indent && (next.text === '-' || next.text.startsWith('- '))))
    )
      return this.block(next.indent, depth + 1);
    return { kind: 'scalar', value: '', at: owner.at + owner.text.length };
  }
}

function isMapEntry(text: string): boolean {
  return /^('(?:[^']|'')*'|[^:'"#[][^:]*?)\s*:(\s|$)/.test(text);
}

function scalarOrFlow(text: string, at: number, l: Line): YamlNode {
  if (!text.startsWith('[')) return scalar(text, at, l);
  if (!text.endsWith(']')) fail(Messages.zeInfoSyntax, at, l.number, 'a flow sequence that does not end on its line');
  const inner = text.slice(1, -1).trim();
  const items = inner === '' ? [] : inner.split(',').map((s) => scalar(s.trim(), at, l));
  return { kind: 'seq', items, at };
}

function scalar(text: string, at: number, l: Line): YamlScalar {
  if (text.startsWith("'")) {
    if (!/^'(?:[^']|'')*'$/.test(text)) fail(Messages.zeInfoSyntax, at, l.number, 'an unterminated quoted scalar');
    return { kind: 'scalar', value: text.slice(1, -1).replace(/''/g, "'"), at };
  }
  if (text.startsWith('"')) {
    if (!/^"(?:[^"\\]|\\.)*"$/.test(text)) fail(Messages.zeInfoSyntax, at, l.number, 'an unterminated quoted scalar');
    return {
      kind: 'scalar',
      value: text.slice(1, -1).replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c === 't' ? '\t' : c)),
      at,
    };
  }
  if (/^[&*!|>{]/.test(text))
    fail(Messages.zeInfoSyntax, at, l.number, `'${text[0]}' starts YAML kernarg's .ze_info reader does not read`);
  return { kind: 'scalar', value: text.replace(/\s+#.*$/, ''), at };
}
