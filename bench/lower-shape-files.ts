// The corpus files of each input shape that \`npm run bench -- lower-shapes\` and \`npm run bench -- lower-targets\`
// lower (issue 30, goal 3): real files from the fetched corpus (scripts/fetch-corpus.sh), grouped by what makes them
// costly. One table, so that the two benchmarks measure the same files.
import { basename } from 'node:path';
import { CORPORA, type CorpusFile } from '../test/corpus/corpora.js';

const corpus = (name: string): CorpusFile[] => CORPORA.find((c) => c.name === name)!.files();
const named = (name: string, files: readonly string[]) => () =>
  corpus(name).filter((f) => files.includes(basename(f.path)));

export const SHAPES: Record<string, () => CorpusFile[]> = {
  'many small kernels': named('darktable', ['basic.cl', 'blendop.cl', 'extended.cl', 'colorspaces.cl']),
  'long branchy bodies': named('darktable', [
    'filmic.cl',
    'demosaic_markesteijn.cl',
    'demosaic_rcd.cl',
    'demosaic_ppg.cl',
  ]),
  'struct-heavy signatures': named('hashcat', ['m00400-pure.cl', 'm00500-pure.cl']),
  'include-heavy': named('hashcat', ['m00000_a0-pure.cl', 'm00010_a1-pure.cl', 'm00020_a3-pure.cl']),
  'small real files': () => corpus('silx'),
};
