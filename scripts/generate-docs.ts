// Writes the generated parts of the documentation: `npm run docs`.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  CLI_DOC,
  DIAGNOSTICS_DOC,
  OPTIONS_DOC,
  ROOT,
  diagnosticsDoc,
  readText,
  cliDocWithCommandHelp,
  optionsDocWithTable,
} from './generated-docs.js';

writeFileSync(join(ROOT, OPTIONS_DOC), optionsDocWithTable(readText(OPTIONS_DOC)));
writeFileSync(join(ROOT, CLI_DOC), cliDocWithCommandHelp(readText(CLI_DOC)));
writeFileSync(join(ROOT, DIAGNOSTICS_DOC), diagnosticsDoc());
console.log(`${OPTIONS_DOC} (target options), ${CLI_DOC} (each command's options), ${DIAGNOSTICS_DOC}`);
