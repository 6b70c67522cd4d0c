// LLVM IR's metadata nodes as the module writer numbers them: `!N = <body>` in the order first named, one number per
// distinct body; and the `kernel_arg_*` tuples of a kernel's plan.

import type { LlvmKernelPlan } from '../abi/llvm-kernel.js';
import { canonical } from '../types/types.js';
import { ident, llvmString } from './llvm-ir-spelling.js';

/** Function nodes numbered one after another, of functions one after another: `count` of them from function `from`. */
interface FunctionRun {
  /** What follows `!{ptr @<name>` in each (its kernels' shape's). */
  readonly tail: string;
  readonly from: number;
  count: number;
}

/** The `!opencl.kernels` line is handed on in pieces of at least this many characters (`NodeList.line`). */
const PIECE_CHARS = 1 << 14;

export class MetadataNodes {
  /**
   * The nodes in number order: each a body, or a run of kernels' `!opencl.kernels` nodes (`functionNode`) kept as
   * numbers, each written from its function's name at the module's end (`lines`). A file of 190,000 kernels of one
   * shape keeps one run, where a string and an array slot per kernel cost the writer a third of its time (arrays of
   * 190,000 grown a slot at a time, their strings kept to the end).
   */
  private readonly parts: (string | FunctionRun)[] = [];
  private count = 0;
  private readonly ids = new Map<string, number>();
  /** In a module not `namedOnce`: each function's first node, by its name. */
  private readonly functionIds = new Map<string, { readonly id: number; readonly tail: string }>();

  /**
   * `functions`: the module's, which `functionNode` names by index. `namedOnce`: no two share a name (`isNamedOnce`),
   * so none is looked for.
   */
  constructor(
    private readonly functions: readonly { readonly name: string }[],
    private readonly namedOnce = false,
  ) {}

  /** The number of a body: a body met before keeps its number. */
  id(body: string): number {
    let id = this.ids.get(body);
    if (id === undefined) {
      id = this.count++;
      this.parts.push(body);
      this.ids.set(body, id);
    }
    return id;
  }

  /** `!N` for a body (`id`). */
  node(body: string): string {
    return `!${this.id(body)}`;
  }

  /**
   * The number of a node naming function `at` (its index in the module's functions), `!{ptr @<name>` and `tail` (a
   * legacy `!opencl.kernels` entry): never equal to another node, since a module defines each function once, so it
   * is numbered without its body being made or looked up (190,000 kernels' bodies hashed and kept in the map); a name
   * met twice (in a module not `namedOnce`, its names kept in a map) is looked up as any node is.
   */
  functionNode(at: number, tail: string): number {
    if (!this.namedOnce) {
      const name = this.functions[at].name;
      const first = this.functionIds.get(name);
      if (first !== undefined) {
        // Met again: the first one's body joins the map, so that equal bodies are one node as before.
        const body = functionBody(name, first.tail);
        if (!this.ids.has(body)) this.ids.set(body, first.id);
        return this.id(functionBody(name, tail));
      }
      this.functionIds.set(name, { id: this.count, tail });
    }
    // The last part is a run whose last node is the last numbered: this one follows it if it is its next function's.
    const last = this.parts[this.parts.length - 1];
    if (typeof last === 'object' && last.tail === tail && last.from + last.count === at) last.count++;
    else this.parts.push({ tail, from: at, count: 1 });
    return this.count++;
  }

  /**
   * The module's last lines, `!N = <body>` each with its newline, a line a piece (a piece names one kernel at most, as
   * every piece before: test/streamed-formats.test.ts).
   */
  *lines(): Generator<string, void, undefined> {
    let id = 0;
    for (const part of this.parts) {
      if (typeof part === 'string') yield `!${id++} = ${part}\n`;
      else {
        const { tail, from, count } = part;
        for (let i = 0; i < count; i++) yield `!${id++} = !{ptr ${ident('@', this.functions[from + i].name)}${tail}\n`;
      }
    }
  }

  /** Numbered again from !0. */
  clear(): void {
    this.parts.length = 0;
    this.count = 0;
    this.ids.clear();
    this.functionIds.clear();
  }
}

/**
 * Node numbers in order (the `!opencl.kernels` list), kept as runs of consecutive ones: its 190,000 kernels' nodes
 * are one run in a file of one shape.
 */
export class NodeList {
  /** Each run's first number and length. */
  private readonly runs: number[] = [];

  get empty(): boolean {
    return this.runs.length === 0;
  }

  push(id: number): void {
    const k = this.runs.length;
    if (k && this.runs[k - 2] + this.runs[k - 1] === id) this.runs[k - 1]++;
    else this.runs.push(id, 1);
  }

  /** `<head>!a, !b, …}` and a newline, in pieces. */
  *line(head: string): Generator<string, void, undefined> {
    let piece = head;
    let first = true;
    for (let r = 0; r < this.runs.length; r += 2) {
      for (let id = this.runs[r], end = id + this.runs[r + 1]; id < end; id++) {
        piece += first ? `!${id}` : `, !${id}`;
        first = false;
        if (piece.length >= PIECE_CHARS) {
          yield piece;
          piece = '';
        }
      }
    }
    yield piece + '}\n';
  }
}

/** A function's node: `!{ptr @<name>` and the rest. */
function functionBody(name: string, tail: string): string {
  return `!{ptr ${ident('@', name)}${tail}`;
}

/** A kernel's `kernel_arg_*` tuples: each one's key and items. */
export function metadataTuples(
  k: LlvmKernelPlan,
  options: { readonly metadata: 'modern' | 'legacy'; readonly kernelArgInfo?: boolean; readonly r600Lowered?: boolean },
): { key: string; items: string[] }[] {
  const rows: { addr: number; access: string; type: string; base: string; qual: string; name: string }[] = [];
  for (const a of k.args) {
    rows.push({
      addr: a.addrSpace,
      access: a.accessQual,
      type: a.typeName,
      base: a.baseType,
      qual: a.typeQual,
      name: a.name,
    });
    const c = canonical(a.type).type;
    if (options.r600Lowered && c.kind === 'image' && (a.typeName === 'image2d_t' || a.typeName === 'image3d_t')) {
      for (const kind of ['size', 'format']) {
        const t = `__llvm_image_${kind}`;
        rows.push({
          addr: a.addrSpace,
          access: a.accessQual,
          type: t,
          base: t,
          qual: a.typeQual,
          name: `__${kind}_${a.name}`,
        });
      }
    }
  }
  const s = (v: string) => `!${llvmString(v)}`;
  const tuples = [
    { key: 'kernel_arg_addr_space', items: rows.map((r) => `i32 ${r.addr}`) },
    { key: 'kernel_arg_access_qual', items: rows.map((r) => s(r.access)) },
    { key: 'kernel_arg_type', items: rows.map((r) => s(r.type)) },
    { key: 'kernel_arg_base_type', items: rows.map((r) => s(r.base)) },
    { key: 'kernel_arg_type_qual', items: rows.map((r) => s(r.qual)) },
  ];
  if (options.kernelArgInfo && options.metadata === 'modern')
    tuples.push({ key: 'kernel_arg_name', items: rows.map((r) => s(r.name)) });
  return tuples;
}
