import type { PlanBase, ValueLayout } from '../abi/plan.js';

function layoutJson(l: ValueLayout): unknown {
  switch (l.kind) {
    case 'scalar':
      return { kind: 'scalar', type: l.scalar, size: l.size, align: l.align };
    case 'vector':
      return { kind: 'vector', element: l.element, length: l.length, size: l.size, align: l.align };
    case 'array':
      return { kind: 'array', element: layoutJson(l.element), length: l.length, stride: l.stride, size: l.size, align: l.align };
    case 'record':
      return {
        kind: l.tagKind,
        typeName: l.typeName,
        size: l.size,
        align: l.align,
        fields: l.fields.map((f) => ({
          name: f.name,
          offset: f.offset,
          ...(f.bitWidth !== undefined ? { bitOffset: f.bitOffset, bitWidth: f.bitWidth } : {}),
          layout: layoutJson(f.layout),
        })),
      };
  }
}

/** Plain data of a plan object: the source type (a compiler object) left out, layouts rendered, undefined dropped. */
function plain(o: object): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) {
    if (v === undefined || k === 'type') continue;
    out[k] = k === 'layout' ? layoutJson(v as ValueLayout) : v;
  }
  return out;
}

/** The JSON contract of ARCHITECTURE.md: `{ target, kernels: [{ name, args: [...], ...}], ... }`. */
export function planToJson(plan: PlanBase): unknown {
  const { kernels, ...rest } = plan;
  return {
    ...plain(rest),
    kernels: kernels.map((k) => {
      const { name, args, ...fields } = k;
      return { name, args: args.map((a) => plain(a)), ...plain(fields) };
    }),
  };
}

export function emitJson(plan: PlanBase): string {
  return JSON.stringify(planToJson(plan), null, 2) + '\n';
}
