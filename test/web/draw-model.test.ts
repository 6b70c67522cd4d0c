// The drawing model without a browser: a target that has no lane drawing of its own (as a newly
// added one) is drawn as the list of its slots, so adding a target needs no change in web/.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TargetName } from '../../src/index.js';
import { drawingOf } from '../../web/src/draw/model.js';
import type { PlanJson } from '../../web/src/plan-json.js';

test('a target with no drawing of its own is drawn as the list of its slots', () => {
  const plan = {
    target: 'newtarget',
    kernels: [
      {
        name: 'k',
        args: [
          { name: 'a', param: 0, role: 'buffer', offset: 0, size: 8 },
          { name: 'n', param: 1, role: 'value', offset: 8, size: 4 },
        ],
      },
    ],
  } as unknown as PlanJson;
  const d = drawingOf('newtarget' as TargetName, plan, plan.kernels[0]);
  assert.equal(d.summary, '2 slots');
  assert.equal(d.lanes.length, 1);
  const lane = d.lanes[0];
  assert.equal(lane.kind, 'list');
  if (lane.kind !== 'list') return;
  assert.deepEqual(
    lane.rows.map((r) => [r.box.name, ...r.cells]),
    [
      ['a', 'buffer', '0', '8'],
      ['n', 'value', '8', '4'],
    ],
  );
});
