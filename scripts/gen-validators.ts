// Rewrites the schema validators compiled ahead of time (web/src/core/scenarios/schema_validate.ts
// and web/src/core/lessons/lesson_validate.ts) from their schemas.
//
//   npx tsx scripts/gen-validators.ts
// web/src/core/scenarios/validators.test.ts fails when a file is not what this writes.
import { readFileSync, writeFileSync } from 'node:fs';
import { VALIDATORS, validatorSource } from '../web/src/core/scenarios/validator_source.ts';

for (const v of VALIDATORS) {
  writeFileSync(v.out, validatorSource(JSON.parse(readFileSync(v.schema, 'utf8')), v.options, v.origin));
  console.log(`wrote ${v.out.pathname}`);
}
