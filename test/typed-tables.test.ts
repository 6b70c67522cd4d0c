// The fact tables and plan schemas are checked by the compiler: a plan schema that disagrees with
// its plan type, a scalar without its row, a format without its file extension fail `tsc`. The
// `@ts-expect-error` lines below are checked by `npm run typecheck` (tsc fails if a line compiles);
// the first test compiles a schema/type pair with the TypeScript API as well, so the failure is
// seen by `node --test` too, with the error it gives.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import {
  type Check,
  PlanError,
  arrayOf,
  ident,
  nat,
  nullable,
  object,
  oneOf,
  planReader,
} from '../src/abi/plan-schema.js';
import { SCALARS, SCALAR_FACTS, type ScalarFacts, type ScalarName } from '../src/types/scalar-facts.js';
import { scalarEncoding } from '../src/layout/encoding.js';
import { FORMAT_NAMES, type FormatName } from '../src/targets/format-names.js';
import { FORMAT_EXTENSIONS } from '../src/cli/lower-batch.js';
import { TARGET_RECORDS } from '../src/targets/index.js';

interface Slot {
  readonly name: string;
  readonly param: number | null;
  readonly offset: number;
}
interface Plan {
  readonly target: 'demo';
  readonly kernels: readonly { readonly name: string; readonly args: readonly Slot[] }[];
}
const slot = { name: ident, param: nullable(nat()), offset: nat() };
const agreeing = object({
  target: oneOf(['demo']),
  kernels: arrayOf(object({ name: ident, args: arrayOf(object(slot)) })),
});
const extraField = object({
  target: oneOf(['demo']),
  kernels: arrayOf(object({ name: ident, args: arrayOf(object({ ...slot, size: nat() })) })),
});
const optionalOffset = object({
  target: oneOf(['demo']),
  kernels: arrayOf(
    object({ name: ident, args: arrayOf(object({ name: ident, param: nullable(nat()) }, { offset: nat() })) }),
  ),
});
const widerTarget = object({
  target: oneOf(['demo', 'other']),
  kernels: arrayOf(object({ name: ident, args: arrayOf(object(slot)) })),
});

test('a plan schema that agrees with its plan type reads plans; the ones that do not fail tsc', () => {
  const read: Check<Plan> = planReader<Plan>()(agreeing, true);
  const plan = read({ target: 'demo', kernels: [{ name: 'k', args: [{ name: 'a', param: 0, offset: 0 }] }] }, '');
  assert.equal(plan.kernels[0].args[0].offset, 0);
  assert.throws(
    () => read({ target: 'demo', kernels: [{ name: 'k', args: [{ name: 'a', param: 0 }] }] }, ''),
    PlanError,
  );
  // @ts-expect-error the schema checks a slot field (`size`) the plan type does not have
  planReader<Plan>()(extraField, true);
  type PlanWithSize = Plan & { readonly kernels: readonly { readonly args: readonly { readonly size: number }[] }[] };
  // @ts-expect-error the plan type has a field (`size`) the schema does not check
  planReader<PlanWithSize>()(agreeing, true);
  // @ts-expect-error the schema takes `offset` as optional, the plan type requires it
  planReader<Plan>()(optionalOffset, true);
  // @ts-expect-error the schema takes a target name the plan type does not
  planReader<Plan>()(widerTarget, true);
});

test('the TypeScript compiler refuses a plan schema with a field its plan type lacks (compiled with the TypeScript API)', () => {
  const schemaFile = fileURLToPath(new URL('../src/abi/plan-schema.ts', import.meta.url));
  const probe = (extra: string) =>
    [
      `import { arrayOf, ident, nat, object, oneOf, planReader } from './plan-schema.js';`,
      `interface Plan { readonly target: 'demo'; readonly kernels: readonly { readonly name: string; readonly args: ` +
        `readonly { readonly name: string }[] }[] }`,
      `const schema = object({ target: oneOf(['demo']), kernels: arrayOf(object({ name: ident, args: ` +
        `arrayOf(object({ name: ident${extra} })) })) });`,
      `export const read = planReader<Plan>()(schema, true);`,
      '',
    ].join('\n');
  let previous: ts.Program | undefined;
  const errorsOf = (text: string): string[] => {
    const probeFile = schemaFile.replace(/plan-schema\.ts$/, 'schema-probe.ts');
    // ES5's library alone (what the two files need of it; errors in plan-schema.ts itself are not looked at): the full
    // one takes seconds to load.
    const options: ts.CompilerOptions = {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      lib: ['lib.es5.d.ts'],
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      types: [],
      skipLibCheck: true,
    };
    const host = ts.createCompilerHost(options);
    const readFile = host.readFile.bind(host);
    host.readFile = (f) => (f === probeFile ? text : f === schemaFile ? readFileSync(schemaFile, 'utf8') : readFile(f));
    const exists = host.fileExists.bind(host);
    host.fileExists = (f) => f === probeFile || exists(f);
    const program = ts.createProgram([probeFile], options, host, previous);
    previous = program;
    return ts
      .getPreEmitDiagnostics(program)
      .filter((d) => d.file?.fileName === probeFile)
      .map((d) => `${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`);
  };
  assert.deepEqual(errorsOf(probe('')), []);
  const errors = errorsOf(probe(', size: nat()'));
  assert.equal(errors.length, 1, errors.join('\n'));
  assert.match(
    errors[0],
    /^2345: Argument of type 'boolean' is not assignable to parameter of type .*schema.*size: number.*planType/,
  );
});

test('every scalar has its row in the one scalar table, and every target format its file extension', () => {
  assert.deepEqual(Object.keys(SCALAR_FACTS), [...SCALARS]);
  for (const t of TARGET_RECORDS) for (const f of t.formats) assert.ok(FORMAT_NAMES.includes(f), `${t.name}: ${f}`);
  assert.deepEqual(Object.keys(FORMAT_EXTENSIONS).sort(), [...FORMAT_NAMES].sort());
  const { half: _half, ...withoutHalf } = SCALAR_FACTS;
  // @ts-expect-error a scalar without its row
  const incomplete: Record<ScalarName, ScalarFacts> = withoutHalf;
  assert.equal(Object.keys(incomplete).length, SCALARS.length - 1);
  const { ptx: _ptx, ...noPtx } = FORMAT_EXTENSIONS;
  // @ts-expect-error a format without its file extension
  const extensions: Record<FormatName, string> = noPtx;
  assert.equal(extensions.json, 'json');
  // @ts-expect-error a name that is no scalar has no encoding (it is not taken for `uint`)
  assert.throws(() => scalarEncoding('uint32'), TypeError);
});
