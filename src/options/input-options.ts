// The facts of the input's options, below both sides that read them: the frontends that honour
// them (preprocessor, OpenCL C predefines, tinytc's calling convention) and the targets, lower()
// and the command line that pass them on. Here, a target names them without importing a frontend.

/** OpenCL C versions, as clang's -cl-std spells them. */
export const CL_STDS = ['CL1.0', 'CL1.1', 'CL1.2', 'CL2.0', 'CL3.0'] as const;
export type ClStd = (typeof CL_STDS)[number];

/** Input languages, as clang's -x names them here: OpenCL C, tinytc IR. */
export const INPUT_LANGUAGES = ['cl', 'ir'] as const;
export type InputLanguage = (typeof INPUT_LANGUAGES)[number];

/** tinytc: the extra memref arguments per mode (v0.3, `interleaved`) or all shapes then all strides (v0.4). */
export const DOPE_ORDERS = ['interleaved', 'shapes-first'] as const;
export type DopeOrder = (typeof DOPE_ORDERS)[number];

/** tinytc --format opencl-c: group tables as `global T*global*`, or `global ulong*` cast back in the body. */
export const GROUP_TABLES = ['pointer', 'ulong'] as const;
export type GroupTables = (typeof GROUP_TABLES)[number];

/** One `-D name[=value]` or `-U name`, in command-line order. */
export type CommandLineMacro = { readonly define: string; readonly value?: string } | { readonly undefine: string };
