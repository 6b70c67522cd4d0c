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
