/**
 * The batched GEMM kernarg's GEMM rules are measured and tested on, as tinytc IR: `@bgemm` computes
 * C[:, :, i] = A[:, :, i] · B[:, :, i] for the group id i, each an n × n matrix of `t`, one
 * work-group per batch item; `wg` writes a work_group_size (else kernarg chooses). One text for
 * the benchmark (bench/tinytc-kernels.ts) and the execution tests (test/tinytc-gemm-variants.test.ts),
 * so that the tests run what the sweep times.
 */
export function batchedGemmIr(t: 'f32' | 'f64', n: number, wg?: readonly [number, number] | null): string {
  const mt = `memref<${t}x${n}x${n}x?>`;
  const mv = `memref<${t}x${n}x${n}>`;
  return `func @bgemm(%A: ${mt}, %B: ${mt}, %C: ${mt})${wg ? ` work_group_size(${wg[0]}, ${wg[1]})` : ''} {
  %id = group_id
  %a = subview %A[:, :, %id] : ${mt}
  %b = subview %B[:, :, %id] : ${mt}
  %c = subview %C[:, :, %id] : ${mt}
  gemm.n.n 1.0, %a, %b, 0.0, %c : ${t}, ${mv}, ${mv}, ${t}, ${mv}
}`;
}
