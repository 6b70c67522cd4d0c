import type { BuildFlag } from '../build-input/build-input.js';
import type { ClStd } from '../frontend/opencl-c/predefined.js';
import { commandLineMacro } from './lower-settings.js';

/**
 * The build flags of a command line (`run`, `gen-ts`): `--cl-std`, then `-I`, `-D` and `-U` in the
 * order given (parseArgs's `sequence`), each macro checked as `lower` checks it (usage errors throw).
 */
export function buildFlags(std: ClStd, sequence: readonly (readonly [string, string])[]): BuildFlag[] {
  return [
    { kind: 'std', std },
    ...sequence.flatMap(([option, value]): BuildFlag[] => {
      if (option === 'include') return [{ kind: 'include', dir: value }];
      if (option !== 'define' && option !== 'undefine') return [];
      const m = commandLineMacro(option, value);
      return [
        'undefine' in m
          ? { kind: 'undefine', name: m.undefine }
          : { kind: 'define', name: m.define, ...(m.value !== undefined ? { value: m.value } : {}) },
      ];
    }),
  ];
}
