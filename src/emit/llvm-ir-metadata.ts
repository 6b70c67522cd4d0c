// LLVM IR's metadata nodes as the module writer numbers them: `!N = <body>` in the order first named, one number per
// distinct body; and the `kernel_arg_*` tuples of a kernel's plan.

import type { LlvmKernelPlan } from '../abi/llvm-kernel.js';
import { canonical } from '../types/types.js';
import { llvmString } from './llvm-ir-spelling.js';

export class MetadataNodes {
  /** The bodies by number. */
  readonly bodies: string[] = [];
  private readonly ids = new Map<string, number>();
  private readonly functionIds = new Map<string, number>();

  /** `!N` for a body: a body met before keeps its number. */
  node(body: string): string {
    let id = this.ids.get(body);
    if (id === undefined) {
      id = this.bodies.length;
      this.bodies.push(body);
      this.ids.set(body, id);
    }
    return `!${id}`;
  }

  /**
   * A node naming function `name` (a legacy `!opencl.kernels` entry): never equal to another node, since a module
   * defines each function once, so it is numbered without its body being looked up (190,000 kernels' bodies hashed
   * and kept in the map); a name met twice is looked up as any node is.
   */
  functionNode(name: string, body: string): string {
    const first = this.functionIds.get(name);
    if (first !== undefined) {
      // Met again: the first one's body joins the map, so that equal bodies are one node as before.
      if (!this.ids.has(this.bodies[first])) this.ids.set(this.bodies[first], first);
      return this.node(body);
    }
    this.functionIds.set(name, this.bodies.length);
    this.bodies.push(body);
    return `!${this.bodies.length - 1}`;
  }

  /** Numbered again from !0. */
  clear(): void {
    this.bodies.length = 0;
    this.ids.clear();
    this.functionIds.clear();
  }
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
