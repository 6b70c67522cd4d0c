// LLVM IR's metadata nodes as the module writer numbers them: `!N = <body>` in the order first named, one number per
// distinct body.

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
