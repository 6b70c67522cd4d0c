import { layoutOf, recordLayout } from '../layout/layout.js';
import type { KernelModule } from '../model/kernel-module.js';
import { kernelArgTypeName, typeToString } from '../types/print.js';
import { canonical } from '../types/types.js';
import { kernelAttributesText, parameterText } from './signatures.js';

const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

/** A readable dump of a KernelModule: records with layouts, functions, constants, samplers. */
export function emitDeclarations(m: KernelModule): string {
  const out: string[] = [`module ${m.path} (OpenCL C ${m.clVersion / 100}, layout ${m.layout.name})`];
  for (const e of m.extensions) out.push(`pragma OPENCL EXTENSION ${e.name} : ${e.enabled ? 'enable' : 'disable'}`);
  for (const r of m.records) {
    const rl = recordLayout(r, m.layout);
    const name = kernelArgTypeName({ kind: 'record', decl: r });
    const attrs = [r.packed ? 'packed' : '', r.aligned ? `aligned(${r.aligned})` : ''].filter(Boolean);
    out.push(`${name}: size ${rl.size}, align ${rl.align}${attrs.length ? ', ' + attrs.join(', ') : ''}`);
    for (const f of rl.fields) {
      const bits = f.bitWidth !== undefined ? ` bits ${f.bitOffset! % 8}+${f.bitWidth}` : '';
      out.push(
        `  +${f.offset}${bits} ${f.name ?? '(anonymous)'}: ${typeToString(f.type)} ` +
          `(size ${layoutOf(f.type, m.layout).size})`,
      );
    }
  }
  for (const f of m.functions) {
    const attrs = kernelAttributesText(f);
    const params = f.params.map((p) => parameterText(p.type, p.name)).join(', ');
    out.push(
      `${f.isKernel ? 'kernel' : 'function'} ${f.name}(${params}) ` +
        `-> ${typeToString(f.result)}${attrs ? ' ' + attrs : ''}${f.defined ? '' : ' [declared]'}`,
    );
    if (f.calls.length) out.push(`  calls: ${f.calls.map((c) => c.name).join(', ')}`);
    if (f.uses.length) out.push(`  uses: ${f.uses.join(', ')}`);
  }
  for (const v of m.variables) {
    const c = canonical(v.type);
    out.push(`${v.space} ${v.name}: ${typeToString({ ...c, space: undefined })} = ${hex(v.bytes)}`);
  }
  for (const s of m.samplers) out.push(`sampler ${s.name} = 0x${s.value.toString(16)}`);
  return out.join('\n') + '\n';
}
