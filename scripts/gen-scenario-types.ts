// Rewrites web/src/core/scenarios/schema_types.ts from web/src/core/scenarios/schema.json: the
// scenario's types, written once in the schema, for the page, the CLI and the tests.
//
//   npx tsx scripts/gen-scenario-types.ts
// web/src/core/scenarios/schema_types.test.ts fails when the file is not what this writes.
import { readFileSync, writeFileSync } from 'node:fs';
import { SCENARIO_SCHEMA_FILE, SCHEMA_TYPES_FILE, schemaTypesSource } from '../web/src/core/scenarios/schema_types_source.ts';

writeFileSync(SCHEMA_TYPES_FILE, schemaTypesSource(JSON.parse(readFileSync(SCENARIO_SCHEMA_FILE, 'utf8'))));
console.log(`wrote ${SCHEMA_TYPES_FILE.pathname}`);
