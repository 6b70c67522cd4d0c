// What the CUDA host hands the driver's JIT when the image is PTX text.
//
// clang's nvcl convention declares an OpenCL `local` pointer argument as a kernel parameter that
// points into shared memory: `.param .u64 .ptr .shared .align 8 k_param_1`. ptxas (CUDA 13.0)
// compiles such PTX, but the JIT of NVIDIA's driver 580 refuses the whole module with
// CUDA_ERROR_INVALID_IMAGE and an empty log (measured on an H200: the same PTX with `.shared`
// dropped from the `.ptr` qualifiers loads, and every other variant tried — no `.align`, another
// `.target`, no `texmode_independent` — is still refused; see scripts/gpu-cuda-launch.ts step 7).
// The state space on `.ptr` is only a promise about what the pointer addresses, for the optimizer:
// the parameter's bytes (a 64-bit shared-window address), its offset and the kernel's own
// `ld.shared`/`st.shared` through it are the same without it. So the host drops that one word from
// `.entry` parameter declarations before loading, and nothing else; kernarg's plans are read from
// the text as given (readPtx still sees `.ptr .shared`, the nvidia local convention).

/** A `.param` declaration of a pointer kernel parameter that names the shared state space. */
const SHARED_POINTER_PARAM = /(\.param\s+\.[bsu](?:32|64)\s+\.ptr)\s+\.shared(?=\s)/g;

/** The PTX the driver's JIT accepts for `ptx`, and how many parameter declarations were changed. */
export function ptxForDriverJit(ptx: string): { readonly text: string; readonly sharedPointerParams: number } {
  let sharedPointerParams = 0;
  const text = ptx.replace(SHARED_POINTER_PARAM, (_, head: string) => {
    sharedPointerParams++;
    return head;
  });
  return { text, sharedPointerParams };
}
