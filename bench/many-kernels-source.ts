// The generated files of very many small kernels that `npm run bench -- many-kernels` lowers (issue 30, goal 2), in a
// module of their own so that other benchmarks and scripts can make the same files without running that benchmark.
//
// Shapes, kernel by kernel: three scalar/pointer arguments and an empty body (the file), a struct by value and
// a constant struct pointer, and a short body with a branch and a loop.

/** One file of `n` small kernels in the shapes above (the first shape in 3 of 4 kernels, as real files of many kernels are mostly small). */
export function manyKernelsSource(n: number, onlyThree = false): string {
  const parts: string[] = ['typedef struct { float4 p; int id; short tag; } Item;\n'];
  for (let i = 0; i < n; i++) {
    switch (onlyThree ? 0 : i % 8) {
      case 3:
        parts.push(
          `kernel void k${i}(global float *a, Item it, constant Item *items) { a[0] = it.p.x + items[1].p.y; }\n`,
        );
        break;
      case 6:
        parts.push(
          `kernel void k${i}(global int *a, int n, uint m) {\n  int s = 0;\n  for (int j = 0; j < n; j++) if (j % 3 == 0) s += a[j]; else s -= (int)m;\n  a[0] = s;\n}\n`,
        );
        break;
      default:
        parts.push(`kernel void k${i}(global float *a, int n, float x) { }\n`);
    }
  }
  return parts.join('');
}
