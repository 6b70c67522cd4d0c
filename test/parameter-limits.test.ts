// The parameter limits that bound inputs whose work grows with their parameters (issue 32): clang's
// 65535 parameters of a function (OpenCL C as written; tinytc as its calling convention makes it),
// and SPIR-V's 255 for the kernels of an OpenCL SPIR-V module, each against the tool that has it.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { DiagnosticBag } from '../src/diagnostics/diagnostic.js';
import { SourceFile } from '../src/diagnostics/source.js';
import { compileTinytc } from '../src/codegen/compile-tinytc.js';
import { renderOpenclSpirv } from '../src/codegen/spirv/opencl-module.js';
import { CLANG_MAX_PARAMETERS, SPIRV_MAX_PARAMETERS } from '../src/frontend/parameter-limits.js';
import { lexIr } from '../src/frontend/tinytc/lexer.js';
import { IrParser } from '../src/frontend/tinytc/parser.js';
import {
  checkParameterBudget,
  openclParameterCount,
  openclParameterCount04,
} from '../src/frontend/tinytc/parameter-budget.js';
import { SPIR64 } from '../src/layout/data-layout.js';
import { lower } from '../src/lower.js';
import type { FunctionInfo } from '../src/model/kernel-module.js';
import { requireTool } from './support/tools.js';
import { SPIRV_VAL } from './support/spirv-check.js';

const host = { readFile: () => undefined };
const CLANG22 = ['clang-22', '/usr/lib/llvm-22/bin/clang'];

/** A prototype of `n` unnamed int parameters (4 bytes each: the cheapest source of many), then a kernel. */
const prototype = (n: number) => `void f(${'int,'.repeat(n - 1)}int);\nkernel void k(global int *p) {}\n`;

test('OpenCL C: the 65536th parameter is refused where clang-22 refuses it (KA4409); 65535 are taken', (t) => {
  const over = prototype(CLANG_MAX_PARAMETERS + 1);
  const r = lower('f.cl', over, host, { target: 'opencl', format: 'json' });
  assert.equal(r.output, undefined);
  assert.deepEqual(
    r.diagnostics.map((d) => [d.code, d.span?.start]),
    // Column of the 65536th `int`: `void f(` then 65535 `int,`.
    [['KA4409', 'void f('.length + 4 * CLANG_MAX_PARAMETERS]],
  );
  const at = lower('f.cl', prototype(CLANG_MAX_PARAMETERS), host, { target: 'opencl', format: 'json' });
  assert.deepEqual(
    at.diagnostics.map((d) => d.code),
    [],
  );
  const clang = requireTool(t, CLANG22);
  if (!clang) return;
  const dir = mkdtempSync(join(tmpdir(), 'kernarg-params-'));
  try {
    for (const [n, want] of [
      [
        CLANG_MAX_PARAMETERS + 1,
        `f.cl:1:${'void f('.length + 4 * CLANG_MAX_PARAMETERS + 1}: error: ${r.diagnostics[0].message}`,
      ],
      [CLANG_MAX_PARAMETERS, ''],
    ] as const) {
      writeFileSync(join(dir, 'f.cl'), prototype(n));
      const c: { stderr: string } = spawnSync(
        clang,
        ['-cc1', '-triple', 'spir64', '-cl-std=CL1.2', '-fsyntax-only', 'f.cl'],
        {
          cwd: dir,
          encoding: 'utf8',
        },
      );
      assert.equal(c.stderr.split('\n')[0], want, `${n} parameters`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('tinytc: a function of more OpenCL C parameters than clang takes is refused (KA4410) at the one past it', () => {
  // 1 + 32767 shapes + 32766 strides (the first is 1) = 65534 for %a, then %n and %m.
  const ir = (extra: string) => `func @big(%a: memref<f32${'x?'.repeat(32767)}>, %n: i32${extra}) {}`;
  const check = (text: string) => {
    const diags = new DiagnosticBag();
    const file = new SourceFile('f.ir', text);
    checkParameterBudget(new IrParser(lexIr(file, diags), diags).parse(), diags);
    return diags.items.map((d) => [d.code, file.text.slice(d.span!.start, d.span!.end), d.message]);
  };
  assert.deepEqual(check(ir('')), []);
  const over = check(ir(', %m: i32'));
  assert.deepEqual(over, [
    [
      'KA4410',
      '%m',
      "function '@big' has 65536 OpenCL C parameters (memref shapes and strides included), past clang's limit of 65535",
    ],
  ]);
  // Through lower: refused before the calling convention, for every target.
  const r = lower('f.ir', ir(', %m: i32'), host, { target: 'opencl', format: 'table' });
  assert.deepEqual(
    r.diagnostics.map((d) => d.code),
    ['KA4410'],
  );
});

test("tinytc: the budget's count of a function's parameters is the calling convention's, for every .ir fixture", () => {
  const fixtures = join(import.meta.dirname, 'fixtures');
  const counted = { '0.3': 0, '0.4': 0 };
  for (const dir of readdirSync(fixtures, { withFileTypes: true }).filter((e) => e.isDirectory()))
    for (const f of readdirSync(join(fixtures, dir.name)).filter((n) => n.endsWith('.ir'))) {
      const text = readFileSync(join(fixtures, dir.name, f), 'utf8');
      const r = compileTinytc(new SourceFile(f, text), { layout: SPIR64 });
      if (!r.module) continue;
      const funcs: { x: { span: unknown; name: string }; n: number }[] =
        r.version === '0.4'
          ? r.program04!.funcs.map((x) => ({ x, n: x.params.reduce((n, p) => n + openclParameterCount04(p.type), 0) }))
          : r.program!.funcs.map((x) => ({ x, n: x.params.reduce((n, p) => n + openclParameterCount(p.type), 0) }));
      for (const { x, n } of funcs) {
        const lowered: FunctionInfo | undefined = r.module.functions.find((g) => g.span === x.span);
        assert.equal(n, lowered?.params.length, `${dir.name}/${f} @${x.name}`);
        counted[r.version ?? '0.3']++;
      }
    }
  assert.ok(counted['0.3'] >= 10 && counted['0.4'] >= 1, JSON.stringify(counted));
});

test('OpenCL SPIR-V: a kernel of more than 255 parameters is refused (KA4411); 255 pass spirv-val', (t) => {
  // 1 + 127 shapes + 126 strides + %n = 255.
  const ir = (extra: string) => `func @k(%a: memref<f32${'x?'.repeat(127)}>, %n: i32${extra}) {}`;
  const over = lower('k.ir', ir(', %m: i32'), host, { target: 'opencl', format: 'spirv' });
  assert.equal(over.binary, undefined);
  assert.deepEqual(
    over.diagnostics.map((d) => [d.code, d.message]),
    [
      [
        'KA4411',
        `kernel 'k' has ${SPIRV_MAX_PARAMETERS + 1} parameters: a SPIR-V function takes at most 255 ` +
          '(OpTypeFunction; spirv-val refuses more)',
      ],
    ],
  );
  // The table of the same kernel is not a SPIR-V function: it stays.
  assert.ok(lower('k.ir', ir(', %m: i32'), host, { target: 'opencl', format: 'table' }).output);
  const at = lower('k.ir', ir(''), host, { target: 'opencl', format: 'spirv' });
  assert.ok(at.binary, at.diagnostics.map((d) => d.message).join('\n'));
  const val = requireTool(t, SPIRV_VAL, ['--version']);
  if (!val) return;
  const dir = mkdtempSync(join(tmpdir(), 'kernarg-params-'));
  try {
    writeFileSync(join(dir, 'k.spv'), at.binary);
    const v = spawnSync(val, [join(dir, 'k.spv')], { encoding: 'utf8' });
    assert.equal(v.status, 0, v.stderr + v.stdout);
    // The module lower refuses, written anyway by the emitter: spirv-val refuses it for its 256 parameters.
    const compiled = compileTinytc(new SourceFile('k.ir', ir(', %m: i32')), { layout: SPIR64 }).compiled!;
    writeFileSync(join(dir, 'over.spv'), renderOpenclSpirv('spirv', compiled));
    const refused = spawnSync(val, [join(dir, 'over.spv')], { encoding: 'utf8' });
    assert.equal(refused.status, 1);
    assert.match(refused.stderr + refused.stdout, /OpTypeFunction may not take more than 255 arguments/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
