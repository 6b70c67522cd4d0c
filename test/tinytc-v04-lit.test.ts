// tinytc v0.4.0's own test programs (test/tinytc-lit, copied from intel/tiny-tensor-compiler) as the
// oracle for kernarg's v0.4 frontend: every program tinytc accepts parses and checks here; every one
// its check-ir tests refuse is refused here, on the line tinytc's CHECK names; and the parameters the
// CHECK lines of calling_convention.ir and func_attributes.ir pin (count, types, Alignment, LocalSize,
// SubgroupSize) are what kernarg's v0.4 calling convention gives.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { compileTinytc } from '../src/codegen/compile-tinytc.js';
import { SourceFile } from '../src/diagnostics/source.js';
import { DATA_LAYOUTS } from '../src/layout/data-layout.js';
import { spirvParams04 } from '../src/frontend/tinytc/v04/calling-convention.js';
import { detectTinytcVersion } from '../src/frontend/tinytc/v04/version.js';
import { layoutOf } from '../src/layout/layout.js';

const LIT = join(import.meta.dirname, 'tinytc-lit');
const read = (dir: string, f: string) => readFileSync(join(LIT, dir, f), 'utf8');
const compile = (name: string, text: string) =>
  compileTinytc(new SourceFile(name, text), { layout: DATA_LAYOUTS.spir64, version: '0.4' });
const errors = (r: ReturnType<typeof compile>) => r.diagnostics.items.filter((d) => d.severity === 'error');

/** flash_attention.template as examples/flash_attention/main.cpp completes it (f32, head dimension 64, block 512). */
const FLASH_DEFS = '$dtype = f32\n$headdim = 64\n$block_size = 512\n';

/**
 * The check-ir programs tinytc refuses, and the line its CHECK names. division_by_zero.ir is
 * refused by tinytc's constant-propagation pass (`-pconstant-propagation`, not check-ir): kernarg
 * folds no constants, so it accepts it, as tinytc's checker alone does.
 */
const REFUSED: Record<string, number> = {
  'axpby0.ir': 7,
  'cast_forbidden.ir': 7,
  'nesting0.ir': 9,
  'nesting1.ir': 9,
  'nesting2.ir': 6,
  'nesting3.ir': 9,
  'scalar_arithmetic_error.ir': 6,
  'syntax_error0.ir': 5,
  'syntax_error1.ir': 6,
  'type_mismatch0.ir': 6,
  'type_mismatch1.ir': 9,
};

test('tinytc v0.4.0 test/lit/spv: all 25 programs parse and check as v0.4, and are recognised as v0.4 where the text tells', () => {
  const files = readdirSync(join(LIT, 'spv'))
    .filter((f) => f.endsWith('.ir'))
    .sort();
  assert.equal(files.length, 25);
  for (const f of files) {
    const r = compile(f, read('spv', f));
    assert.deepEqual(
      errors(r).map((d) => d.message),
      [],
      f,
    );
    assert.ok(r.module, f);
    assert.equal(r.module.functions.length, (read('spv', f).match(/^func @/gm) ?? []).length, f);
  }
  // Programs with nothing but empty functions of plain types (unique_function_type.ir) read alike in both versions.
  const guessed = files.filter((f) => detectTinytcVersion(read('spv', f)) === '0.4');
  assert.deepEqual(
    files.filter((f) => !guessed.includes(f)),
    ['unique_function_type.ir'],
  );
});

test('tinytc v0.4.0 check-ir and examples: accepted ones check; refused ones are refused on the line tinytc names', () => {
  const files = readdirSync(join(LIT, 'check-ir')).sort();
  assert.equal(files.length, 15);
  for (const f of files) {
    const text = read('check-ir', f);
    const want = /CHECK: +(?:<stdin>:)?(\d+)\.\d+/.exec(text);
    const r = compile(f, text);
    const lines = errors(r).flatMap((d) => (d.span ? [d.span.file.lineCol(d.span.start).line] : []));
    if (f in REFUSED) {
      assert.equal(Number(want?.[1]), REFUSED[f], `${f}: tinytc's CHECK line`);
      assert.ok(
        lines.includes(REFUSED[f]),
        `${f}: kernarg refuses it on line ${REFUSED[f]} (it reported lines ${lines.join(', ') || 'none'})`,
      );
    } else
      assert.deepEqual(
        errors(r).map((d) => d.message),
        [],
        f,
      );
  }
  assert.deepEqual(errors(compile('copy.ir', read('examples', 'copy.ir'))), []);
  const flash = compile('flash_attention.ir', FLASH_DEFS + read('examples', 'flash_attention.template'));
  assert.deepEqual(
    errors(flash).map((d) => d.message),
    [],
  );
  assert.deepEqual(
    flash.module?.functions.map((f) => f.name),
    ['flash_attention', 'flash_attention_64'],
  );
});

/** The SPIR-V type each `%[[#NAME:]]` of a CHECK line defines, spelt as spirvParams04 spells it. */
function checkTypes(text: string): { types: Map<string, string>; align: Map<string, number> } {
  const types = new Map<string, string>();
  const align = new Map<string, number>();
  for (const m of text.matchAll(/CHECK: OpDecorate %\[\[#(\w+):?\]\] Alignment (\d+)/g)) align.set(m[1], Number(m[2]));
  for (const m of text.matchAll(/CHECK: %\[\[#(\w+):?\]\] = (OpType\w+)(.*)$/gm)) {
    const [name, op, rest] = [m[1], m[2], m[3].trim()];
    const ref = (s: string) => types.get(/%\[\[#(\w+)\]\]/.exec(s)![1])!;
    if (op === 'OpTypeFloat') types.set(name, `f${rest}`);
    else if (op === 'OpTypeInt') types.set(name, `i${rest.split(' ')[0]}`);
    else if (op === 'OpTypeVector') types.set(name, ref(rest) === 'f32' ? 'c32' : 'c64');
    else if (op === 'OpTypePointer') types.set(name, `ptr ${rest.split(' ')[0]} ${ref(rest)}`);
  }
  return { types, align };
}

test("calling_convention.ir: each function's parameters (count, type, Alignment) are its CHECK lines'", () => {
  const text = read('spv', 'calling_convention.ir');
  const { types, align } = checkTypes(text);
  const r = compile('calling_convention.ir', text);
  const funcs = r.program04!.funcs;
  const blocks = text.split(/CHECK-LABEL/).slice(1);
  assert.equal(blocks.length, funcs.length);
  funcs.forEach((f, i) => {
    const pinned = [...blocks[i].matchAll(/OpFunctionParameter %\[\[#(\w+)\]\]/g)].map((m) => m[1]);
    const ours = spirvParams04(f);
    assert.deepEqual(
      ours.map((p) => p.type),
      pinned.map((n) => types.get(n)),
      `@${f.name}: types`,
    );
    assert.deepEqual(
      ours.map((p) => p.alignment),
      pinned.map((n) => align.get(n)),
      `@${f.name}: Alignment`,
    );
    // The KernelModule every target lowers has the same parameters in the same order.
    assert.deepEqual(
      r.module!.functions[i].params.map((p) => p.name),
      ours.map((p) => p.name),
      `@${f.name}: names`,
    );
  });
});

test("func_attributes.ir: LocalSize and SubgroupSize as its CHECK lines'", () => {
  const text = read('spv', 'func_attributes.ir');
  const r = compile('func_attributes.ir', text);
  const byName = new Map(r.module!.functions.map((f) => [f.name, f.attributes]));
  for (const m of text.matchAll(/CHECK: OpExecutionMode %\[\[#(\w+)\]\] (LocalSize|SubgroupSize) ([\d ]+)/g)) {
    const attrs = byName.get(m[1].toLowerCase())!;
    const want = m[3].trim().split(' ').map(Number);
    if (m[2] === 'LocalSize') assert.deepEqual(attrs.reqdWorkGroupSize, want, m[0]);
    else assert.equal(attrs.intelReqdSubGroupSize, want[0], m[0]);
  }
});

test('v0.4 refusals are diagnostics with their own codes, never exceptions', () => {
  const cases: [string, string][] = [
    ['func @f() { %a = constant 1 : i32\n %b = frob %a : i32 }', 'KA2403'],
    ['$n = 4\nfunc @f(%a: memref<f32x$m>) {}', 'KA2400'],
    ['$t = f32\nfunc @f(%a: memref<f32x$t>) {}', 'KA2401'],
    ['$n = !calc(4 0 /)\nfunc @f() {}', 'KA2402'],
    ['func @f() { %a = subgroup_local_id : i32 }', 'KA2410'],
    ['func @f(%A: memref<f32x4x4>, %c: f32) { parallel { gemm %c, %A, %A, %c, %A } }', 'KA2411'],
    ['func @f(%a: c64) { %b = cast %a : f64 }', 'KA2412'],
    ['func @f(%a: f64) { %b = shl %a, %a : f64 }', 'KA2413'],
    ['func @f() { yield () }', 'KA2414'],
    ['func @f(%a: coopmatrix<f32x8x8,matrix_a>) {}', 'KA2415'],
    ['func @f(%a: memref<f32x4>) { %i = constant 0 : index\n %v = load %a[%i] : f64 }', 'KA2416'],
    ['func @f(%a: memref<f32x8>) { %b = subview %a[2:8] : memref<f32x8> }', 'KA3111'],
    ['func @f(%a: i32) { %b = add %a, %c : i32 }', 'KA3100'],
    ['func @f(%a: i8) { %b = constant 300 : i8 }', 'KA3112'],
  ];
  for (const [ir, code] of cases) {
    const r = compile('k.ir', ir);
    assert.ok(
      errors(r).some((d) => d.code === code),
      `${ir}\n→ ${
        errors(r)
          .map((d) => `${d.code} ${d.message}`)
          .join('; ') || 'no error'
      }`,
    );
  }
});

/** Tokens an edit may insert: v0.4 keywords, punctuation, names, numbers and types. */
const VOCABULARY = [
  'func',
  '@f',
  '%0',
  '%x',
  '$d',
  '$d = 4',
  '!calc(',
  '(',
  ')',
  '{',
  '}',
  '[',
  ']',
  '<',
  '>',
  ',',
  ':',
  '=',
  '?',
  '->',
  '<=',
  'x',
  '.x',
  '.t',
  '.atomic',
  'constant',
  '1',
  '-2',
  '1.5',
  'inf',
  'true',
  '[1.0, 2.0]',
  'i32',
  'index',
  'f16',
  'bf16',
  'c64',
  'bool',
  'memref<f32x?>',
  'group<memref<f32x?>x?, offset: ?>',
  'coopmatrix<f32x8x8,matrix_acc>',
  ',local',
  'strided<',
  'add',
  'equal',
  'cast',
  'load',
  'store',
  'subview',
  'expand',
  'fuse',
  'gemm',
  'cumsum',
  'if',
  'else',
  'for',
  'init(',
  'foreach',
  'foreach_tile',
  'as',
  'parallel',
  'yield',
  'barrier',
  'alloca',
  'attributes',
  '{alignment=16}',
  'cooperative_matrix_apply',
  '"s"',
  ';c\n',
];

test('v0.4 frontend on edited lit programs (generated): never throws; every diagnostic has a code and a place; a clean program has its calling convention', () => {
  const programs = readdirSync(join(LIT, 'spv')).map((f) => read('spv', f));
  const edit = fc.oneof(
    fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), len: fc.integer({ min: 1, max: 12 }) }),
    fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), text: fc.constantFrom(...VOCABULARY) }),
  );
  fc.assert(
    fc.property(
      fc.nat({ max: programs.length - 1 }),
      fc.array(edit, { minLength: 1, maxLength: 4 }),
      (which, edits) => {
        let text = programs[which];
        for (const e of edits) {
          const at = e.at % (text.length + 1);
          text =
            e.kind === 'delete'
              ? text.slice(0, at) + text.slice(at + e.len)
              : `${text.slice(0, at)} ${e.text} ${text.slice(at)}`;
        }
        const r = compile('e.ir', text);
        for (const d of r.diagnostics.items) {
          assert.match(d.code, /^KA\d{4}$/);
          if (d.span) assert.ok(d.span.start >= 0 && d.span.end <= text.length, d.message);
        }
        if (!r.diagnostics.hasErrors)
          r.program04!.funcs.forEach((f, i) =>
            assert.equal(r.module!.functions[i].params.length, spirvParams04(f).length),
          );
      },
    ),
    { numRuns: 250, seed: 4004 },
  );
});

test("every pointer of every lit program: the KernelModule's pointee alignment (what every target reads) is tinytc's Alignment", () => {
  let pointers = 0;
  for (const f of readdirSync(join(LIT, 'spv')).filter((x) => x.endsWith('.ir'))) {
    const r = compile(f, read('spv', f));
    r.program04!.funcs.forEach((fn, i) => {
      const facts = spirvParams04(fn);
      r.module!.functions[i].params.forEach((p, j) => {
        if (p.type.type.kind !== 'pointer')
          return assert.equal(facts[j].alignment, undefined, `${f} @${fn.name} ${p.name}`);
        pointers++;
        assert.equal(
          layoutOf(p.type.type.pointee, DATA_LAYOUTS.spir64).align,
          facts[j].alignment,
          `${f} @${fn.name} ${p.name}`,
        );
      });
    });
  }
  assert.ok(pointers >= 20, `${pointers} pointers`);
});
