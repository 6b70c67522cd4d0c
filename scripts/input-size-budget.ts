// The time budget of large inputs (issue 32: no input over 1 s of one core per 100 KB of source):
// each shape that makes kernarg's work grow with the input (many memref modes, many parameters,
// long names, many fields or kernels) generated at about `--kb` KB, lowered for every target in
// table and JSON form, and timed in CPU ms of this process (user + system; the machine may be
// shared, and CPU time is what one core spends), best of `--repeat` warm runs, per 100 KB.
//   node --import tsx scripts/input-size-budget.ts [--kb 200] [--repeat 2] [--shape name] [--target t]
import { TARGETS, lower } from '../src/lower.js';

interface Shape {
  readonly name: string;
  readonly ext: 'cl' | 'ir';
  /** Source of about `bytes` characters. */
  make(bytes: number): string;
}

const repeat = (unit: (i: number) => string, bytes: number, join = ''): string[] => {
  const out: string[] = [];
  let n = 0;
  for (let i = 0; n < bytes; i++) {
    const s = unit(i);
    out.push(s);
    n += s.length + join.length;
  }
  return out;
};

export const SHAPES: readonly Shape[] = [
  // tinytc: two parameters (shape and stride) per two characters of source.
  { name: 'tinytc-memref-dynamic-modes', ext: 'ir', make: (b) => `func @k(%a: memref<f32${'x?'.repeat(b / 2)}>) {}` },
  // Static modes: no parameters, but the canonical strides multiply the extents.
  { name: 'tinytc-memref-static-modes', ext: 'ir', make: (b) => `func @k(%a: memref<f32${'x3'.repeat(b / 2)}>) {}` },
  {
    name: 'tinytc-group-dynamic-modes',
    ext: 'ir',
    make: (b) => `func @k(%a: group<memref<f32${'x?'.repeat(b / 2)}>, offset: ?>) {}`,
  },
  {
    name: 'tinytc-scalar-params',
    ext: 'ir',
    make: (b) => `func @k(${repeat((i) => `%a_${i}: i32`, b, ', ').join(', ')}) {}`,
  },
  {
    name: 'tinytc-memref-params',
    ext: 'ir',
    make: (b) => `func @k(${repeat((i) => `%m_${i}: memref<f32x?>`, b, ',').join(',')}) {}`,
  },
  { name: 'tinytc-long-name', ext: 'ir', make: (b) => `func @k(%${'a'.repeat(b)}: memref<f32x?x?>) {}` },
  {
    name: 'tinytc-many-functions',
    ext: 'ir',
    make: (b) => repeat((i) => `func @fn_${i}(%a: memref<f32x?>) {}\n`, b).join(''),
  },
  {
    name: 'opencl-c-params',
    ext: 'cl',
    make: (b) => `kernel void k(${repeat((i) => `int a_${i}`, b, ',').join(',')}) {}`,
  },
  {
    name: 'opencl-c-unnamed-params',
    ext: 'cl',
    make: (b) => `void f(${repeat(() => 'int', b, ',').join(',')});\nkernel void k(int a) {}`,
  },
  { name: 'opencl-c-long-name', ext: 'cl', make: (b) => `kernel void k(global int *${'a'.repeat(b)}) {}` },
  {
    name: 'opencl-c-struct-fields',
    ext: 'cl',
    make: (b) => `struct S { ${repeat((i) => `int f_${i};`, b).join('')} };\nkernel void k(struct S s) {}`,
  },
  {
    name: 'opencl-c-many-kernels',
    ext: 'cl',
    make: (b) => repeat((i) => `kernel void k_${i}(global int *p, int n) {}\n`, b).join(''),
  },
];

function option(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? undefined : process.argv[i + 1];
}

function cpuMs(f: () => void): number {
  const c = process.cpuUsage();
  f();
  const d = process.cpuUsage(c);
  return (d.user + d.system) / 1000;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const kb = Number(option('kb') ?? 200);
  const repeats = Number(option('repeat') ?? 2);
  const onlyShape = option('shape');
  const onlyTarget = option('target');
  const host = { readFile: () => undefined };
  let worst = 0;
  console.log('shape | KB | target | format | CPU ms (best) | ms per 100 KB | result');
  for (const shape of SHAPES) {
    if (onlyShape && !shape.name.includes(onlyShape)) continue;
    const text = shape.make(kb * 1000);
    for (const target of TARGETS) {
      if (onlyTarget && target !== onlyTarget) continue;
      for (const format of ['table', 'json'] as const) {
        let best = Infinity;
        let result = '';
        for (let r = 0; r < repeats; r++) {
          best = Math.min(
            best,
            cpuMs(() => {
              const out = lower(`f.${shape.ext}`, text, host, { target, format });
              const error = out.diagnostics.find((d) => d.severity === 'error');
              result = error ? error.code : `${(out.output?.length ?? 0) >> 10} KiB out`;
            }),
          );
        }
        const per100 = (best * 100_000) / text.length;
        worst = Math.max(worst, per100);
        const kbs = (text.length / 1000).toFixed(0);
        console.log(
          `${shape.name} | ${kbs} | ${target} | ${format} | ${best.toFixed(0)} | ${per100.toFixed(0)} | ${result}`,
        );
      }
    }
  }
  console.log(`worst: ${worst.toFixed(0)} ms per 100 KB`);
}
