// The parts of the core's JSON contract (ARCHITECTURE.md, `--format json`) the page reads.

/** A by-value argument's byte layout as the JSON spells it. */
export type LayoutJson =
  | { kind: 'scalar'; type: string; size: number; align: number }
  | { kind: 'vector'; element: string; length: number; size: number; align: number }
  | { kind: 'array'; element: LayoutJson; length: number; stride: number; size: number; align: number }
  | {
      kind: 'struct' | 'union';
      typeName: string;
      size: number;
      align: number;
      fields: { name: string | null; offset: number; bitOffset?: number; bitWidth?: number; layout: LayoutJson }[];
    };

export interface SlotJson {
  name: string;
  param: number | null;
  role: string;
  typeName?: string;
  // byte-buffer targets (amdhsa, amd-cl2, r600) and vulkan POD offsets
  offset?: number;
  size?: number | null;
  align?: number;
  // opencl
  index?: number;
  kind?: string;
  addressSpace?: string;
  access?: string;
  // amdhsa
  valueKind?: string;
  // amd-cl2
  argType?: string;
  resourceId?: number;
  // r600
  image?: string;
  // vulkan
  argKind?: string;
  descriptorSet?: number;
  binding?: number;
  argSize?: number;
  specId?: number;
  arrayElemSize?: number;
  vkDescriptorType?: string;
  // llvm
  addrSpace?: number;
  accessQual?: string;
  baseType?: string;
  typeQual?: string;
  // cuda
  ptxName?: string;
  ptxType?: string;
  space?: string;
  pointeeAlign?: number;
  // zebin
  argIndex?: number;
  addrmode?: string;
  addrspace?: string;
  accessType?: string;
  bindingTable?: boolean;
  slmAlignment?: number;
  samplerIndex?: number;
  imageType?: string;
  pieces?: { sourceOffset: number; offset: number; size: number }[];
  layout?: LayoutJson;
}

export interface KernelJson {
  name: string;
  args: SlotJson[];
  kernargSegmentSize?: number;
  kernargSize?: number;
  inputSize?: number;
  podPlacement?: string;
  podSize?: number;
  // cuda
  paramBytes?: number;
  dynamicShared?: string[];
  // zebin
  payloadSize?: number;
  [field: string]: unknown;
}

export interface PlanJson {
  target: string;
  kernels: KernelJson[];
  // vulkan module resources
  pushConstants?: { name: string; offset: number; size: number }[];
  literalSamplers?: { mask: number; expr: string; descriptorSet: number; binding: number; name?: string }[];
  constantData?: {
    descriptorSet: number;
    binding: number;
    variables: { name: string; offset: number; size: number }[];
  };
  specConstants?: { name: string; specId: number }[];
  descriptorSets?: { set: number; use: string }[];
  pushConstantRange?: { offset: number; size: number };
  [field: string]: unknown;
}
