import fc from 'fast-check';

const SCALARS = ['i8', 'i16', 'i32', 'i64', 'index', 'f32', 'f64'] as const;
const dim = fc.oneof(
  { weight: 3, arbitrary: fc.integer({ min: 1, max: 64 }).map(String) },
  { weight: 2, arbitrary: fc.constant('?') },
);
const memref = fc
  .record({
    element: fc.constantFrom(...SCALARS),
    shape: fc.array(dim, { maxLength: 4 }),
    strides: fc.option(
      fc.array(fc.oneof(fc.integer({ min: 0, max: 4096 }).map(String), fc.constant('?')), {
        minLength: 4,
        maxLength: 4,
      }),
      { freq: 3 },
    ),
  })
  .map(({ element, shape, strides }) => {
    const s = strides ? `,strided<${strides.slice(0, shape.length).join(',')}>` : '';
    return `memref<${element}${shape.map((d) => `x${d}`).join('')}${shape.length && strides ? s : ''}>`;
  });
const type = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...SCALARS) },
  { weight: 4, arbitrary: memref },
  {
    weight: 2,
    arbitrary: fc
      .tuple(memref, fc.constantFrom('', ', offset: ?', ', offset: 0', ', offset: 7'))
      .map(([m, o]) => `group<${m}${o}>`),
  },
);
const name = fc.oneof(fc.stringMatching(/^[a-z][a-z0-9_]{0,5}$/), fc.nat(99).map(String));

/** A tinytc function signature (empty body) with random scalars, memrefs and groups. */
export const irFunction = fc.record({
  params: fc.uniqueArray(fc.tuple(name, type), { selector: ([n]) => n, maxLength: 6 }),
  wg: fc.option(fc.tuple(fc.constantFrom(16, 32, 64, 128), fc.integer({ min: 1, max: 8 })), { freq: 4 }),
  sg: fc.option(fc.constantFrom(8, 16, 32), { freq: 4 }),
});

export function renderIr(
  f: { params: [string, string][]; wg: [number, number] | null; sg: number | null },
  name: string,
): string {
  const attrs = `${f.wg ? ` work_group_size(${f.wg[0]}, ${f.wg[1]})` : ''}${f.sg ? ` subgroup_size(${f.sg})` : ''}`;
  return `func @${name}(${f.params.map(([n, t]) => `%${n}: ${t}`).join(', ')})${attrs} {}\n`;
}
