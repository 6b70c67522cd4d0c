/**
 * amd-cl2 arguments passed as an address (structures by reference, pointers, images, samplers, queues, events, pipes).
 */
export function amdCl2ByAddress(argType: string): boolean {
  return (
    argType === 'structure' ||
    argType.endsWith('*') ||
    [
      'image1d',
      'image1d_array',
      'image1d_buffer',
      'image2d',
      'image2d_array',
      'image3d',
      'sampler',
      'queue',
      'clkevent',
      'pipe',
    ].includes(argType)
  );
}
