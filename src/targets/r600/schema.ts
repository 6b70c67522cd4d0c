import { PlanError, arrayOf, ident, nat, object, oneOf, planReader, str } from '../../abi/plan-schema.js';
import { type Loose, bytes, checkKernels, layoutCheck, slotBase, slotExtra } from '../../abi/plan-fields.js';
import type { R600Plan } from './lower.js';
import { placeR600Kernel } from './placement.js';

const schema = object({
  target: oneOf(['r600']),
  mcpu: oneOf(['cypress']),
  kernels: arrayOf(
    object({
      name: ident,
      args: arrayOf(
        object(
          { ...slotBase, offset: bytes, size: bytes, typeName: str() },
          {
            ...slotExtra,
            irType: str(),
            accessQual: str(),
            resourceId: nat(),
            image: ident,
            fields: arrayOf(str()),
            layout: layoutCheck,
          },
        ),
      ),
      inputSize: bytes,
    }),
  ),
});

/** Bytes the r600 packer writes for a slot without a layout. */
function r600Width(s: Loose): number {
  if (s.role === 'image-size' || (s.param === null && s.name === 'grid_offset')) return 12;
  if (s.role === 'image-format') return 8;
  return 4;
}

const readJson = planReader<R600Plan>()(schema, true);

/** An r600 plan from its JSON form: every slot inside the input buffer. */
export function readR600Plan(json: unknown): R600Plan {
  const plan = readJson(json, '');
  checkKernels(
    plan.kernels,
    (k) => k.inputSize,
    (s, p, _ai, fits) => {
      // The R600 image pass inserts these after an image: no source parameter of their own, and the image they
      // describe named (its JSON form keeps `image` and `fields` only on such slots, so a plan saying otherwise
      // would not read back as itself: a fuzz finding, test/fuzz/regressions/plan-json/r600-image-size-with-param).
      if ((s.role === 'image-size' || s.role === 'image-format') && (s.param !== null || s.image === undefined))
        throw new PlanError(p, `an ${s.role} slot describes an image: its param is null and its image is named`);
      fits(s.offset, Math.max(s.size as number, s.layout ? 0 : r600Width(s)), 'segment');
      if (s.layout) fits(s.offset, s.layout.size, 'segment');
    },
  );
  return { ...plan, kernels: plan.kernels.map(placeR600Kernel) };
}
