// The BLAS decisions both printers read (src/codegen/blas-loops.ts), checked as data over every
// function, operand order and transposition the checker lets through: each factor reads a whole
// index of its operand, names only loop variables its loop defines, and each loop variable runs over
// the extent of op(X) it indexes; the operands keep tinytc's roles (alpha, A, [B], beta, C).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { Inst, Operand } from '../src/frontend/tinytc/ast.js';
import {
  type BlasLoops,
  type LoopVar,
  type ShapedView,
  type Trans,
  blasCall,
  blasLoops,
  readFactors,
  gemmOperands,
  op,
} from '../src/codegen/blas-loops.js';

type Fn = Extract<Inst, { op: 'blas' }>['fn'];
interface FakeView extends ShapedView {
  readonly name: string;
  readonly shape: readonly string[];
}

/**
 * The extents of op(A), [op(B),] C per function that the checker lets through (axpby: order 0, 1 or 2
 * alike; sum: a matrix into a vector or a vector into a scalar), tied by the symbols M, N and K.
 */
const SHAPES: Record<Fn, readonly (readonly (readonly string[])[])[]> = {
  axpby: [
    [[], []],
    [['M'], ['M']],
    [
      ['M', 'N'],
      ['M', 'N'],
    ],
  ],
  sum: [
    [['M', 'K'], ['M']],
    [['K'], []],
  ],
  gemm: [
    [
      ['M', 'K'],
      ['K', 'N'],
      ['M', 'N'],
    ],
  ],
  gemv: [[['M', 'K'], ['K'], ['M']]],
  ger: [[['M'], ['N'], ['M', 'N']]],
  hadamard: [[['M'], ['M'], ['M']]],
};

/** A BLAS instruction over named operands, and a reader of views of those extents (A and B as stored). */
function call(fn: Fn, shapes: readonly (readonly string[])[], transA: Trans, transB: Trans) {
  const memrefs = shapes.length === 2 ? ['A', 'C'] : ['A', 'B', 'C'];
  const names = shapes.length === 2 ? ['alpha', 'A', 'beta', 'C'] : ['alpha', 'A', 'B', 'beta', 'C'];
  const operands = names.map((name) => ({ kind: 'value', name }) as unknown as Operand);
  const types = names.map((n) =>
    memrefs.includes(n) ? { type: { kind: 'memref' } } : { type: { kind: 'scalar', name: 'f32' } },
  );
  const inst = { op: 'blas', fn, transA, transB, atomic: false, operands, types } as unknown as Extract<
    Inst,
    { op: 'blas' }
  >;
  const reads: string[] = [];
  const reader = {
    view(o: Operand): FakeView {
      const name = (o as unknown as { name: string }).name;
      const m = memrefs.indexOf(name);
      const t = name === 'A' ? transA : name === 'B' ? transB : null;
      const shape = t === 't' && shapes[m].length === 2 ? [...shapes[m]].reverse() : shapes[m];
      return { name, element: 'f64', shape };
    },
    scalarArg(o: Operand, t: string, as: string): string {
      const name = (o as unknown as { name: string }).name;
      reads.push(name);
      return `${name}:${t}->${as}`;
    },
  };
  return { call: blasCall(inst, null, reader), reads };
}

const trans = fc.constantFrom<Trans>('n', 't', null);
const fns = fc.constantFrom<Fn>('axpby', 'sum', 'gemm', 'gemv', 'ger', 'hadamard');

test('operands by role: alpha before beta, both in C’s element type, B only where the function has one', () => {
  fc.assert(
    fc.property(fns, trans, trans, fc.nat(), (fn, ta, tb, pick) => {
      const shapes = SHAPES[fn][pick % SHAPES[fn].length];
      const { call: c, reads } = call(fn, shapes, ta, tb);
      assert.deepEqual(reads, ['alpha', 'beta']);
      assert.equal(c.alpha, 'alpha:f32->f64');
      assert.equal(c.beta, 'beta:f32->f64');
      assert.equal((c.a as FakeView).name, 'A');
      assert.equal((c.c as FakeView).name, 'C');
      assert.equal((c.b as FakeView | null)?.name ?? null, shapes.length === 3 ? 'B' : null);
      if (c.fn === 'gemm') assert.deepEqual(gemmOperands(c).slice(0, 2), [ta, tb]);
    }),
  );
});

test('every factor reads a whole index of its operand, at variables its loop defines, each over its extent', () => {
  fc.assert(
    fc.property(fns, trans, fc.nat(), (fn, ta, pick) => {
      if (fn === 'gemm') return;
      const { call: c } = call(fn, SHAPES[fn][pick % SHAPES[fn].length], ta, null);
      if (c.fn === 'gemm') return;
      const l: BlasLoops<string, FakeView> = blasLoops(c);
      assert.equal(l.c, c.c);
      const C = c.c;
      // The extent each loop variable runs over.
      const extents: Partial<Record<LoopVar, unknown>> =
        l.kind === 'once'
          ? {}
          : l.kind === 'linear'
            ? { i: l.n, ...(l.sum === null ? {} : { k: l.sum }) }
            : l.kind === 'grid'
              ? { i: l.rows, j: l.cols }
              : { i: l.n };
      if (l.kind === 'total') {
        assert.equal(C.shape.length, 0);
        assert.equal(l.n, l.a.shape[0]);
        return;
      }
      // C is indexed by i (and j): its extents are the loops'.
      assert.deepEqual(C.shape, l.kind === 'grid' ? [l.rows, l.cols] : l.kind === 'once' ? [] : [l.n]);
      for (const f of l.factors) {
        assert.equal(f.index.length, f.view.shape.length, `${fn}: a factor of ${f.view.name} reads a whole index`);
        for (const v of f.index) assert.ok(v in extents, `${fn}: ${v} is a variable of the ${l.kind} loop`);
        // Each mode of the operand, as stored, runs over the extent of the variable indexing it.
        const [modes] = readFactors([f], { i: 'i', j: 'j', k: 'k' } as const, (_, index) => index);
        modes.forEach((v, m) => assert.equal(extents[v], f.view.shape[m], `${fn}: ${f.view.name}.${m} over ${v}`));
      }
      if (l.kind === 'linear' && l.sum !== null) assert.equal(l.sum, op(c.a, c.transA).cols);
      if (l.kind === 'linear' && l.vectors) assert.equal(fn, 'axpby');
    }),
  );
});
