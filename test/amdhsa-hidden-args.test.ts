// amdhsa's hidden-argument table (src/targets/amdhsa/hidden-args.ts) is internally consistent for
// every generation, code object and kernel: the arguments present never overlap, fit the code
// object's hidden block, and the placement and plan reader agree with the row (clang's own layout
// is checked by test/oracle/amdhsa-clang.test.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HIDDEN_ARGS, HIDDEN_BYTES, HIDDEN_KINDS, hiddenArgs } from '../src/targets/amdhsa/hidden-args.js';
import { AMDHSA_CODE_OBJECTS, AMDHSA_LLVMS } from '../src/targets/amdhsa/lower.js';
import { lower } from '../src/lower.js';
import { emitJson } from '../src/emit/json.js';
import { readPlan } from '../src/plan-json/read-plan.js';
import type { AmdhsaPlan } from '../src/abi/plan.js';

const NO_FILES = { readFile: () => undefined };
const FACTS = [false, true].flatMap((modulePrints) =>
  [false, true].flatMap((enqueues) => [false, true].map((dynamicLds) => ({ modulePrints, enqueues, dynamicLds }))),
);

test('amdhsa hidden arguments: in offset order, aligned to their size, never overlapping, inside the hidden block', () => {
  for (const co of AMDHSA_CODE_OBJECTS) {
    for (const llvm of AMDHSA_LLVMS) {
      for (const f of FACTS) {
        const args = hiddenArgs(co, llvm, f);
        let end = 0;
        for (const a of args) {
          assert.ok(
            a.offset >= end,
            `${co}/${llvm}/${JSON.stringify(f)}: ${a.kind} at ${a.offset} overlaps the argument before it`,
          );
          assert.equal(a.offset % a.size, 0, `${a.kind} is aligned to its size`);
          end = a.offset + a.size;
        }
        assert.ok(
          end <= HIDDEN_BYTES[co],
          `code object ${co}'s hidden arguments end at ${end}, past its ${HIDDEN_BYTES[co]} bytes`,
        );
        // Code object 4's block has no gaps: each of its seven 8-byte words is one argument.
        if (co === 4)
          assert.deepEqual(
            args.map((a) => a.offset),
            [0, 8, 16, 24, 32, 40, 48],
          );
      }
    }
  }
});

test('amdhsa hidden arguments: every row is placed by some code object, and code objects 5 and 6 agree', () => {
  for (const kind of HIDDEN_KINDS) {
    const row: { v4?: unknown; v5?: unknown } = HIDDEN_ARGS[kind];
    assert.ok(row.v4 || row.v5, `${kind} has a placement`);
  }
  for (const llvm of [19, 22] as const)
    for (const f of FACTS) assert.deepEqual(hiddenArgs(5, llvm, f), hiddenArgs(6, llvm, f));
});

test('amdhsa hidden arguments: a lowered slot and a slot read back from JSON are filled as the row says', () => {
  const source = 'kernel void k(global int* p, local float* tile) { printf("x"); }\nint printf(constant char*, ...);\n';
  for (const codeObject of AMDHSA_CODE_OBJECTS) {
    const options = { codeObject, amdLlvm: codeObject === 6 ? (22 as const) : (19 as const) };
    const r = lower('k.cl', source, NO_FILES, { target: 'amdhsa', format: 'json', ...options });
    assert.deepEqual(r.diagnostics, []);
    const plan = r.plan as AmdhsaPlan;
    const back = readPlan(JSON.parse(emitJson(plan))) as AmdhsaPlan;
    for (const p of [plan, back]) {
      for (const s of p.kernels[0].args.filter((a) => a.param === null)) {
        const row = HIDDEN_ARGS[s.valueKind as keyof typeof HIDDEN_ARGS];
        assert.ok(row, s.valueKind);
        assert.equal(s.size, row.bytes);
        const fill = s.fill;
        switch (row.fill.kind) {
          case 'geometry':
            assert.deepEqual(fill, { kind: 'geometry', field: row.fill.field, axis: row.fill.axis, bytes: row.bytes });
            break;
          case 'runtime':
            assert.deepEqual(fill, { kind: 'hidden', key: s.valueKind, bytes: 8 });
            break;
          case 'lds-size':
            assert.deepEqual(fill, { kind: 'lds-size', params: ['tile'] });
            break;
          case 'zero':
            assert.deepEqual(fill, { kind: 'zero' });
            break;
        }
      }
    }
  }
});
