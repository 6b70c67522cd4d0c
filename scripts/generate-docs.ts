// Writes the generated parts of the documentation: `npm run docs`.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, diagnosticsDoc, readText, readmeWithCommandHelp, readmeWithOptionTable } from './generated-docs.js';

writeFileSync(join(ROOT, 'README.md'), readmeWithCommandHelp(readmeWithOptionTable(readText('README.md'))));
writeFileSync(join(ROOT, 'docs/diagnostics.md'), diagnosticsDoc());
console.log('README.md (target options, each command\'s options), docs/diagnostics.md');
