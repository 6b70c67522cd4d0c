/**
 * The `.entry` declarations of a PTX module, by kernel: each from its `.entry` (or `.visible .entry`)
 * line through the `)` that closes its parameter list, as LLVM's NVPTX backend and NVIDIA's
 * OpenCL compiler print them. kernarg's `--format ptx` is compared with these line for line.
 */
export function ptxEntries(ptx: string): Map<string, string> {
  const out = new Map<string, string>();
  const lines = ptx.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = /^(?:\.visible\s+)?\.entry\s+([\w$.]+)\s*\(/.exec(lines[i]);
    if (!m) continue;
    const block = [lines[i].trimEnd()];
    let j = i;
    while (!lines[j].trimEnd().endsWith(')') && j + 1 < lines.length) block.push(lines[++j].trimEnd());
    out.set(m[1], block.join('\n'));
    i = j;
  }
  return out;
}

/** One parameter of an `.entry` block: its PTX type, pointer space and alignment, byte-array size. */
export interface PtxParam {
  readonly type: string;
  readonly ptr?: { readonly space: string; readonly align: number };
  readonly align?: number;
  readonly bytes?: number;
}

/** The parameters of one `.entry` block (`.param .u64 .ptr .global .align 4 k_param_0`, `.param .align 16 .b8 k_param_1[16]`). */
export function ptxParams(entry: string): PtxParam[] {
  const out: PtxParam[] = [];
  for (const m of entry.matchAll(/\.param\s+([^,\n)]*)/g)) {
    const words = m[1].trim().split(/\s+/);
    const arr = /\[(\d+)\]$/.exec(words[words.length - 1]);
    if (words[0] === '.align') out.push({ type: words[2].slice(1), align: Number(words[1]), bytes: arr ? Number(arr[1]) : undefined });
    else if (words[1] === '.ptr') {
      const space = words[2] === '.align' ? 'generic' : words[2].slice(1);
      const ai = words.indexOf('.align');
      out.push({ type: words[0].slice(1), ptr: { space, align: ai >= 0 ? Number(words[ai + 1]) : 1 } });
    } else out.push({ type: words[0].slice(1) });
  }
  return out;
}
