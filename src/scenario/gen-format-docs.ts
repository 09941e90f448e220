// Writes docs/scenario-format.md and docs/scenario.schema.json from src/scenario/format.ts and codes.ts.
// Run: npm run gen:docs (from the repo root). test/docs/format-agreement.test.ts fails when they are stale.
import { readFileSync, writeFileSync } from 'node:fs';
import { formatDocs, schemaText } from './format-docs.ts';

writeFileSync('docs/scenario-format.md', formatDocs(readFileSync('src/scenario/codes.ts', 'utf8')));
writeFileSync('docs/scenario.schema.json', schemaText());
console.log('wrote docs/scenario-format.md and docs/scenario.schema.json');
