// Files of very many kernels are lowered a kernel at a time (Target.kernelwise): each kernel's plan
// is made only when the writer reaches it, so the whole plan is never held. The streamed text must
// be the whole lowering's (streamed-formats.test.ts holds it to the goldens); here: that the
// kernels really come one by one, that a file with a refused kernel writes nothing and says the
// same as the whole lowering (each diagnostic once), and that the CLI's stdout writer encodes
// pieces into the same bytes as the joined text.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { type LowerOptions, lower } from '../src/lower.js';
import { TARGETS, targetNamed } from '../src/targets/index.js';
import { DiagnosticBag } from '../src/diagnostics/diagnostic.js';
import { compileOpenCL, memoryHost } from '../src/frontend/opencl-c/index.js';
import { SourceFile } from '../src/diagnostics/source.js';
import { kernelSeq } from '../src/abi/stream-plan.js';
import { encodePieces } from '../src/cli/node-io.js';

const host = { readFile: () => undefined };
const seed = process.env.KERNARG_FC_SEED ? Number(process.env.KERNARG_FC_SEED) : 1234;

const RECORDS = TARGETS.map((name) => targetNamed(name)!);
const KERNELWISE = RECORDS.filter((t) => t.kernelwise);

test('every target lowers a kernel at a time', () => {
  assert.deepEqual(
    RECORDS.filter((t) => !t.kernelwise).map((t) => t.name),
    [],
  );
});

test('a kernel-at-a-time format makes each kernel plan only when the writer reaches it', () => {
  const n = 30;
  const source = Array.from({ length: n }, (_, i) => `kernel void k${i}(global float *a, int n, float x) { }\n`).join(
    '',
  );
  for (const target of KERNELWISE) {
    const kw = target.kernelwise!;
    const options: LowerOptions = { target: target.name };
    const fe = compileOpenCL(new SourceFile('many.cl', source), memoryHost({}), { layout: target.layout(options) });
    for (const format of kw.formats) {
      const bag = new DiagnosticBag();
      const lowering = kw.lower(fe.module!, options, bag)!;
      let made = 0;
      const counted = function* () {
        for (let it = lowering.kernels(bag), k = it.next(); !k.done; k = it.next()) {
          made++;
          yield k.value;
        }
      };
      const plan = { ...lowering.head, kernels: kernelSeq(lowering.count, counted) };
      const where = `${target.name} ${format}`;
      let seen = 0;
      for (const piece of lowering.pieces(plan, format, { module: fe.module!, options })) {
        for (const m of piece.matchAll(/\bk(\d+)\b/g)) {
          const i = Number(m[1]);
          seen = Math.max(seen, i + 1);
          // A piece naming kernel i was written before kernel i + 2 was lowered.
          assert.ok(made <= i + 2, `${where}: ${made} kernels lowered before k${i} was written`);
        }
      }
      // opencl's signatures print the module's prototypes: no plan is made at all; r600's LLVM IR is the kernels
      // before the R600 pass (LLVM kernel plans, made as they are written), not its plans.
      const none = format === 'signatures' || (target.name === 'r600' && format === 'llvm-ir');
      assert.equal(made, none ? 0 : n, where);
      assert.equal(seen, n, `${where}: ${seen} of ${n} kernels written`);
    }
  }
});

// A refused kernel between two good ones, per target whose kernels can be refused as they are lowered.
const REFUSED: readonly { options: LowerOptions; kernel: string }[] = [
  { options: { target: 'r600' }, kernel: 'kernel void z(read_write image2d_t i) {}' },
  { options: { target: 'amd-cl2' }, kernel: 'kernel void z(read_only image2d_msaa_t i) {}' },
  { options: { target: 'cuda' }, kernel: 'typedef struct { float v[9000]; } Big; kernel void z(Big b) {}' },
  // A warning, not an error: written, and said once.
  { options: { target: 'cuda' }, kernel: 'typedef struct { float v[1200]; } Mid; kernel void z(Mid b) {}' },
  { options: { target: 'zebin', zebin: { device: 'tgllp' } }, kernel: 'kernel void z(double d) {}' },
  // vulkan's planner refuses a POD block past the push-constant limit while it plans the kernel.
  {
    options: { target: 'vulkan', vulkan: { podPushConstant: true } },
    kernel: 'typedef struct { float v[64]; } Big; kernel void z(Big b) {}',
  },
];

test('a refused kernel: nothing streamed, the whole lowering diagnostics, each once', () => {
  for (const { options, kernel } of REFUSED) {
    const source = `kernel void a(global float *x) {}\n${kernel}\nkernel void b(int n) {}\n`;
    const target = targetNamed(String(options.target))!;
    for (const format of target.kernelwise!.formats) {
      const where = `${options.target} ${format}: ${kernel}`;
      const whole = lower('e.cl', source, host, { ...options, format });
      const streamed = lower('e.cl', source, host, { ...options, format, chunked: true, streamed: true });
      assert.ok(whole.diagnostics.length > 0, `${where}: no diagnostic`);
      const said = (r: typeof whole) => r.diagnostics.map((d) => `${d.code} ${d.span?.start} ${d.message}`);
      assert.deepEqual(said(streamed), said(whole), where);
      assert.equal(streamed.pieces === undefined, whole.output === undefined, where);
      if (streamed.pieces) assert.equal([...streamed.pieces].join(''), whole.output, where);
      // Iterating again lowers again, saying nothing more.
      if (streamed.pieces) assert.equal(streamed.diagnostics.length, whole.diagnostics.length, `${where}, again`);
    }
  }
});

test('stdout pieces are encoded into the bytes of the joined text, in buffers that are reused', () => {
  const piece = fc.string({ unit: fc.constantFrom('a', 'é', '€', '😀', '\n', 'z'), maxLength: 40 });
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 30 }), fc.integer({ min: 12, max: 64 }), (pieces, size) => {
      const out: Buffer[] = [];
      encodePieces(pieces, (b) => out.push(Buffer.from(b)), undefined, size);
      assert.deepEqual(Buffer.concat(out), Buffer.from(pieces.join(''), 'utf8'));
      for (const b of out) assert.ok(b.length > 0);
    }),
    { seed, numRuns: 300 },
  );
  // Long pieces that come again (a renderer's cached text) are copied as their bytes: the same bytes as the text's.
  const long = fc.string({ unit: fc.constantFrom('a', 'é', '€', '😀', '\n'), minLength: 256, maxLength: 600 });
  fc.assert(
    fc.property(
      fc.array(long, { minLength: 1, maxLength: 6 }),
      fc.array(fc.tuple(fc.nat(), piece), { maxLength: 40 }),
      fc.integer({ min: 2400, max: 8192 }),
      (longs, picks, size) => {
        // Each long piece is the same string object every time it comes, as a renderer's cache hands it on.
        const pieces = picks.flatMap(([i, short]) => [longs[i % longs.length], short]);
        const out: Buffer[] = [];
        encodePieces(pieces, (b) => out.push(Buffer.from(b)), undefined, size);
        assert.deepEqual(Buffer.concat(out), Buffer.from(pieces.join(''), 'utf8'));
        for (const b of out) assert.ok(b.length > 0 && b.length <= size);
      },
    ),
    { seed, numRuns: 200 },
  );
  // Stopped (the reader went away): nothing more is handed on.
  const out: Buffer[] = [];
  let stop = false;
  encodePieces(
    ['abc', 'def', 'ghi'],
    (b) => {
      out.push(Buffer.from(b));
      stop = true;
    },
    () => stop,
    4,
  );
  assert.deepEqual(Buffer.concat(out).toString(), 'abc');
});
