// tinytc's calling convention names each derived parameter after its argument (`a_shape0`, `a_offset`) and resolves
// collisions with a lookup per name; when no two names can meet it skips the lookups. Whichever way it went, the
// names and the KA3108 warnings must be those of the collision rule applied to every parameter in order: generated
// names step around every user name and every name given so far (`_1`, `_2`, …), a user name around the names given
// so far (`_1`, …, then `_` while a user name holds it).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { OpenCLPlan } from '../src/abi/plan.js';
import { memoryHost } from '../src/frontend/opencl-c/index.js';
import { lower } from '../src/lower.js';

const seed = process.env.KERNARG_FC_SEED ? Number(process.env.KERNARG_FC_SEED) : 1234;

/** The names the rule gives, and its warnings, for the names each parameter asks for. */
function ruleNames(asked: readonly { name: string; generated: boolean }[], userNames: readonly string[]) {
  const taken = new Set(userNames);
  const used = new Set<string>();
  const names: string[] = [];
  const warnings: string[] = [];
  for (const { name, generated } of asked) {
    let n = name;
    for (let k = 1; used.has(n) || (generated && taken.has(n)); k++) n = `${name}_${k}`;
    while (!generated && n !== name && taken.has(n)) n = `${n}_`;
    if (n !== name) warnings.push(`generated argument name '${name}' is taken; using '${n}'`);
    used.add(n);
    taken.add(n);
    names.push(n);
  }
  return { names, warnings };
}

// Names that meet: prefixes of each other followed by `_`, generated-looking ones, repeats.
const name = fc.constantFrom('a', 'b', 'a_shape0', 'a_stride1', 'a_1', 'a_shape0_1', 'b_offset', 'a_b', 'ab');
const mode = fc.constantFrom('?', '4');
const param = fc.record({
  name,
  kind: fc.constantFrom('i32', 'memref', 'group'),
  modes: fc.array(mode, { minLength: 0, maxLength: 3 }),
  offset: fc.boolean(),
});

test('derived parameter names follow the collision rule, with or without lookups', () => {
  fc.assert(
    fc.property(
      // A name twice is refused before the convention (tinytc's checker); collisions come from derived names.
      fc.uniqueArray(param, { minLength: 1, maxLength: 5, selector: (p) => p.name }),
      fc.constantFrom('interleaved', 'shapes-first'),
      (params, dopeOrder: 'interleaved' | 'shapes-first') => {
        const spelled = params.map((p, i) => {
          const memref = `memref<f32${p.modes.map((m) => `x${m}`).join('')}>`;
          const type =
            p.kind === 'i32'
              ? 'i32'
              : p.kind === 'memref'
                ? memref
                : `group<${memref}${p.offset ? ', offset: ?' : ''}>`;
          return `%${p.name}: ${type}${i === params.length - 1 ? '' : ', '}`;
        });
        const r = lower('k.ir', `func @f(${spelled.join('')}) {}`, memoryHost({}), {
          target: 'opencl',
          format: 'json',
          tinytc: { dopeOrder },
        });
        const plan = r.plan as OpenCLPlan | undefined;
        assert.ok(plan, r.diagnostics.map((d) => d.message).join('\n'));
        const asked = plan.kernels[0].args.map((a) => {
          const user = params[a.param!].name;
          if (a.role === 'value' || a.role === 'data') return { name: user, generated: false };
          return { name: a.role === 'offset' ? `${user}_offset` : `${user}_${a.role}${a.dim}`, generated: true };
        });
        const expected = ruleNames(
          asked,
          params.map((p) => p.name),
        );
        assert.deepEqual(
          plan.kernels[0].args.map((a) => a.name),
          expected.names,
        );
        assert.deepEqual(
          r.diagnostics.filter((d) => d.code === 'KA3108').map((d) => d.message),
          expected.warnings,
        );
      },
    ),
    { seed, numRuns: 400 },
  );
});
