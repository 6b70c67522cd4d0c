/**
 * What a code generator decided about the kernels it wrote, beside the interface the KernelModule
 * holds (tinytc input, whose kernels kernarg generates): which kernels' reqd_work_group_size its
 * policy chose because the source gives none. Formats say so; the interface is the same either way.
 */
export interface GeneratedCode {
  readonly chosenWorkGroupSize: ReadonlySet<string>;
}
