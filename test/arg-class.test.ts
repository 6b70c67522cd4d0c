// The one argument classifier every target maps onto its slots (src/model/arg-class.ts), and every
// registered target taking a parameter of each class: a slot or a diagnostic, never a throw.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DiagnosticBag } from '../src/diagnostics/diagnostic.js';
import { SourceFile } from '../src/diagnostics/source.js';
import { type ArgClassKind, classifyArg } from '../src/model/arg-class.js';
import type { KernelModule, Parameter } from '../src/model/kernel-module.js';
import { TARGET_RECORDS } from '../src/targets/index.js';
import { type QualType, type Type, q, scalar } from '../src/types/types.js';

const decl = {
  tagKind: 'struct' as const,
  name: 'P',
  fields: [{ name: 'x', type: q(scalar('int')), span: { file: new SourceFile('p.cl', ''), start: 0, end: 0 } }],
  packed: false,
  span: { file: new SourceFile('p.cl', ''), start: 0, end: 0 },
  id: 1,
};
const typedef = (name: string, target: QualType): Type => ({ kind: 'typedef', name, target });

/** A parameter type of each class, with the class and the facts it must carry. */
const CASES: readonly {
  readonly name: string;
  readonly type: QualType;
  readonly kind: ArgClassKind;
  readonly facts?: Record<string, unknown>;
}[] = [
  {
    name: 'gp',
    type: q({ kind: 'pointer', pointee: q(scalar('float'), { space: 'global' }) }),
    kind: 'buffer',
    facts: { space: 'global' },
  },
  {
    name: 'cp',
    type: q({ kind: 'pointer', pointee: q(scalar('int'), { space: 'constant', const: true }) }),
    kind: 'buffer',
    facts: { space: 'constant' },
  },
  // Through a typedef of the pointer: the class is the canonical type's.
  {
    name: 'tp',
    type: q(typedef('cptr', q({ kind: 'pointer', pointee: q(scalar('int'), { space: 'constant' }) }))),
    kind: 'buffer',
    facts: { space: 'constant' },
  },
  { name: 'lp', type: q({ kind: 'pointer', pointee: q(scalar('float'), { space: 'local' }) }), kind: 'local' },
  { name: 'f', type: q(scalar('float')), kind: 'pod' },
  { name: 'v', type: q({ kind: 'vector', element: 'int', length: 4 }), kind: 'pod' },
  { name: 's', type: q({ kind: 'record', decl }), kind: 'pod' },
  {
    name: 'img',
    type: q({ kind: 'image', name: 'image2d_t' }),
    kind: 'image',
    facts: { access: 'read_only', image: 'image2d_t' },
  },
  {
    name: 'wimg',
    type: q({ kind: 'image', name: 'image3d_t' }, { access: 'write_only' }),
    kind: 'image',
    facts: { access: 'write_only' },
  },
  {
    name: 'arr',
    type: q({ kind: 'image', name: 'image1d_array_t' }, { access: 'read_write' }),
    kind: 'image',
    facts: { access: 'read_write' },
  },
  { name: 'smp', type: q({ kind: 'opaque', name: 'sampler_t' }), kind: 'sampler' },
  {
    name: 'pp',
    type: q({ kind: 'pipe', element: q(scalar('int')) }, { access: 'write_only' }),
    kind: 'pipe',
    facts: { access: 'write_only' },
  },
  { name: 'dq', type: q({ kind: 'opaque', name: 'queue_t' }), kind: 'queue' },
  { name: 'ev', type: q({ kind: 'opaque', name: 'clk_event_t' }), kind: 'event' },
  { name: 'rid', type: q({ kind: 'opaque', name: 'reserve_id_t' }), kind: 'opaque', facts: { name: 'reserve_id_t' } },
];

test('classifyArg: one class per parameter type, with its space, access and image shape', () => {
  for (const c of CASES) {
    const a = classifyArg(c.type);
    assert.equal(a.kind, c.kind, c.name);
    for (const [k, v] of Object.entries(c.facts ?? {}))
      assert.equal((a as unknown as Record<string, unknown>)[k], v, `${c.name}.${k}`);
  }
  const shapeOf = (name: 'image1d_array_t' | 'image3d_t' | 'image1d_buffer_t' | 'image2d_array_msaa_depth_t') => {
    const a = classifyArg(q({ kind: 'image', name }));
    assert.ok(a.kind === 'image');
    return a.shape;
  };
  assert.deepEqual(shapeOf('image1d_array_t'), { dims: 1, arrayed: true, buffer: false, depth: false, msaa: false });
  assert.deepEqual(shapeOf('image3d_t'), { dims: 3, arrayed: false, buffer: false, depth: false, msaa: false });
  assert.deepEqual(shapeOf('image1d_buffer_t'), { dims: 1, arrayed: false, buffer: true, depth: false, msaa: false });
  assert.deepEqual(shapeOf('image2d_array_msaa_depth_t'), {
    dims: 2,
    arrayed: true,
    buffer: false,
    depth: true,
    msaa: true,
  });
});

function moduleWith(
  target: (typeof TARGET_RECORDS)[number],
  params: readonly { readonly name: string; readonly type: QualType }[],
): KernelModule {
  const text = `kernel void k(${params.map((p) => p.name).join(', ')}) {}\n`;
  const file = new SourceFile('k.cl', text);
  const at = (s: string) => ({ file, start: text.indexOf(s), end: text.indexOf(s) + s.length });
  const ps: Parameter[] = params.map((p, index) => ({ index, name: p.name, type: p.type, span: at(p.name) }));
  return {
    language: 'opencl-c',
    path: 'k.cl',
    clVersion: 200,
    layout: target.layout({ target: target.name }),
    extensions: [],
    functions: [
      {
        name: 'k',
        isKernel: true,
        result: q(scalar('void')),
        params: ps,
        attributes: {},
        defined: true,
        calls: [],
        uses: [],
        span: at('k('),
      },
    ],
    variables: [],
    samplers: [],
    records: [],
  };
}

for (const target of TARGET_RECORDS) {
  test(`${target.name}: a parameter of every class gives a slot for it or a coded diagnostic, never a throw`, () => {
    for (const c of CASES) {
      const diags = new DiagnosticBag();
      const lowered = target.lower(moduleWith(target, [c]), { target: target.name }, diags);
      if (lowered) {
        const slots = lowered.plan.kernels[0].args.filter((s) => s.param === 0);
        assert.ok(slots.length >= 1, `${target.name} ${c.name}: a slot for the parameter`);
        assert.equal(diags.hasErrors, false);
      } else {
        assert.ok(
          diags.items.length > 0 && diags.items.every((d) => /^KA4\d{3}$/.test(d.code)),
          `${target.name} ${c.name}: ${JSON.stringify(diags.items.map((d) => d.code))}`,
        );
      }
    }
  });
}
