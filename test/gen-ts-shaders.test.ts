// `kernarg gen-ts shader.spv`: bindings of every shader in test/shaders type-check under strict tsc
// with right calls, each wrong call fails it on its own line, and the right calls give the
// reference's numbers on the Vulkan device.
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import ts from 'typescript';
import { runCliWith } from '../src/cli/main.js';
import { nodeIO } from '../src/cli/node-io.js';
import { GLSLANG, shaderSpirv } from './support/glsl.js';
import { requireTool } from './support/tools.js';
import { vulkanPresent } from './support/vulkan-device.js';
import { SHADER_CASES } from './shaders/cases.js';

const ROOT = join(import.meta.dirname, '..');
const HERE = join(import.meta.dirname, 'gen-ts');
// Inside the package, so that `kernarg/runtime` resolves as it does for a user (test/.tmp is ignored by git).
const OUT = join(ROOT, 'test', '.tmp', 'gen-ts-shaders');

/** Writes every shader's .spv and its bindings (through the CLI, as a user would) into OUT; the modules' paths. */
function emitModules(glslang: string): string[] {
  assert.ok(
    existsSync(join(ROOT, 'dist', 'runtime', 'index.d.ts')),
    'dist/ is missing: npm test builds it (npm run build)',
  );
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  return SHADER_CASES.map((c) => {
    const spv = join(OUT, `${c.name}.spv`);
    writeFileSync(spv, shaderSpirv(c.name, glslang)!);
    let err = '';
    const out = join(OUT, `${c.name}.ts`);
    const code = runCliWith(['gen-ts', spv, '-o', out], {
      ...nodeIO(),
      stderr: (s: string) => (err += s),
      color: false,
    });
    assert.equal(code, 0, err);
    const text = readFileSync(out, 'utf8');
    assert.deepEqual(
      [...text.matchAll(/^import .* from '([^']+)';$/gm)].map((m) => m[1]),
      ['kernarg/runtime'],
      'imports only kernarg/runtime',
    );
    return out;
  });
}

let previous: ts.Program | undefined;

function typecheck(files: string[]): { file: string; line: number; text: string }[] {
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ['lib.es2022.d.ts'],
    types: ['node'],
    skipLibCheck: true,
    baseUrl: ROOT,
    paths: { 'kernarg/runtime': ['dist/runtime/index.d.ts'] },
    typeRoots: [join(ROOT, 'node_modules', '@types')],
  };
  // Reusing the previous program keeps the files both checks share (the runtime's declarations, lib.d.ts) parsed once.
  const program = ts.createProgram(files, options, undefined, previous);
  previous = program;
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const pos = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : { line: -1 };
    return {
      file: d.file?.fileName ?? '',
      line: pos.line + 1,
      text: ts.flattenDiagnosticMessageText(d.messageText, '\n'),
    };
  });
}

test('gen-ts <shader.spv>: bindings type-check with right calls; each wrong call fails strict tsc on its own line', (t) => {
  const glslang = requireTool(t, GLSLANG, ['--version']);
  if (!glslang) return;
  const modules = emitModules(glslang);
  const right = join(OUT, 'shader-calls.ts');
  const wrong = join(OUT, 'shader-wrong-calls.ts');
  copyFileSync(join(HERE, 'shader-calls.ts'), right);
  copyFileSync(join(HERE, 'shader-wrong-calls.ts'), wrong);
  assert.deepEqual(
    typecheck([...modules, right, wrong]).map((d) => `${d.file}:${d.line}: ${d.text}`),
    [],
    'every module and right call type-checks; every @ts-expect-error is used',
  );
  const lines = readFileSync(wrong, 'utf8').split('\n');
  const expected = lines.flatMap((l, i) => (/^\s*\/\/ @ts-expect-error/.test(l) ? [i + 2] : []));
  assert.ok(expected.length >= 9, `${expected.length} wrong calls`);
  writeFileSync(wrong, lines.map((l) => l.replace('// @ts-expect-error', '// (was expect-error)')).join('\n'));
  const errs = typecheck([...modules, wrong]);
  assert.deepEqual(
    errs.filter((d) => d.file !== wrong),
    [],
  );
  assert.deepEqual(
    [...new Set(errs.map((d) => d.line))].sort((a, b) => a - b),
    expected,
  );
});

test('gen-ts <shader.spv>: calls through the bindings give the reference numbers on the Vulkan device', async (t) => {
  const glslang = requireTool(t, GLSLANG, ['--version']);
  if (!glslang) return;
  // The bindings load the runtime from dist/ (as a user's would); a context opened here from src/
  // would declare the same FFI structs twice in one process, so the device is looked for through dist/ too.
  const runtime = (await import(join(ROOT, 'dist', 'runtime', 'index.js'))) as { listVulkanDevices(): unknown[] };
  if (!vulkanPresent(t, () => runtime.listVulkanDevices().length)) return;
  emitModules(glslang);
  copyFileSync(join(HERE, 'shader-calls.ts'), join(OUT, 'shader-calls.ts'));
  const m = (await import(join(OUT, 'shader-calls.ts'))) as {
    run(device: string | undefined): {
      y: number[];
      v: number[];
      moved: { pos: number[]; id: number };
      wide: unknown[];
    };
  };
  const r = m.run(process.env.KERNARG_VK_DEVICE);
  assert.deepEqual(r.y, [12, 24, 36, 40]);
  assert.deepEqual(
    r.v,
    Array.from({ length: 16 }, (_, i) => -(i * 2 + 3) * 2),
  );
  // vel += (0, -9.5, 0) * 0.5 / 1 = (2, -4.25, 0); pos += vel * 0.5; id = 3 * 2 + 1.
  assert.deepEqual(r.moved, { pos: [1, -2.125, 0], id: 7 });
  assert.deepEqual(r.wide, [2, 3, '9007199254740994', 1]);
});
