// The cuda drawing: the packed parameter buffer, each parameter with its .param declaration, and
// the shared-memory window.
import type { KernelJson, PlanJson, SlotJson } from '../plan-json.js';
import { type Box, type Lane, box } from './parts.js';

/** A cuda parameter's declaration as `--format ptx` prints it (nvcl's `.ptr` spaces; pocl's bare integers). */
export function ptxParam(s: SlotJson, nvcl: boolean): string {
  const name = s.ptxName ?? s.name;
  if (s.ptxType === 'b8') return `.param .align ${s.align ?? 1} .b8 ${name}[${s.size ?? 0}]`;
  if (s.space === undefined || !nvcl) return `.param .${s.ptxType ?? ''} ${name}`;
  const space = s.space === 'generic' ? '' : `.${s.space} `;
  return `.param .${s.ptxType ?? ''} .ptr ${space}.align ${s.pointeeAlign ?? 1} ${name}`;
}

export function cudaLanes(plan: PlanJson, k: KernelJson): Lane[] {
  const nvcl = plan.localMemory === 'nvidia';
  const size = k.paramBytes ?? 0;
  const boxes = k.args.map((s, i): Box => ({
    ...box(k, i, s.offset ?? 0, s.size ?? 0, { index: s.index ?? i, ptx: ptxParam(s, nvcl) }),
    tipRows: [
      ['.param', ptxParam(s, nvcl)],
      ['kernelParams', `[${s.index ?? i}]`],
    ],
  }));
  const lanes: Lane[] = [
    { kind: 'bytes', title: `Packed parameter buffer · ${size} bytes`, size, unit: 'byte', boxes },
  ];
  // cuLaunchKernel's other form: an array of pointers, one per parameter, each to its value's bytes.
  const params = k.args.map((s, i) => ({
    box: box(
      k,
      i,
      0,
      s.size ?? 0,
      { index: s.index ?? i, param: 1 },
      `kernelParams[${s.index ?? i}] points at ${s.size ?? 0} bytes`,
    ),
    cells: [
      String(s.index ?? i),
      String(s.size ?? 0),
      s.ptxType === 'b8' ? `.b8[${s.size ?? 0}]` : `.${s.ptxType ?? ''}`,
    ],
  }));
  lanes.push({
    kind: 'list',
    title: 'kernelParams: a pointer to each value',
    columns: ['index', 'size', 'ptx'],
    rows: params,
  });
  // Local pointers: blocks of the launch's dynamic shared memory (sharedMemBytes), sized by the host.
  const shared = (k.dynamicShared ?? []).flatMap((name) => {
    const i = k.args.findIndex((s) => s.name === name && s.param !== null);
    if (i < 0) return [];
    const s = k.args[i];
    const how = nvcl ? '.shared address' : '.u32 offset';
    const what = nvcl
      ? "its block's address in the shared window"
      : "its block's offset in the one extern shared array (pocl)";
    return [
      {
        box: box(
          k,
          i,
          0,
          0,
          { shared: 1 },
          `sharedMemBytes holds this block (the host picks its size); the parameter is ${what}`,
        ),
        cells: [s.pointeeAlign === undefined ? '—' : String(s.pointeeAlign), how],
      },
    ];
  });
  if (shared.length > 0)
    lanes.push({
      kind: 'list',
      title: 'Dynamic shared memory (sharedMemBytes)',
      columns: ['block align', 'passed as'],
      rows: shared,
    });
  return lanes;
}
