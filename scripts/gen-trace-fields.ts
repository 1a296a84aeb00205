// Rewrites web/src/core/engine/trace_fields.ts from wasm/stack/trace.h (TRACE_KINDS): the names
// of each trace kind's fields, written once in the C header, for the page and the CLI.
//
//   npx tsx scripts/gen-trace-fields.ts
// web/src/core/engine/trace_fields.test.ts fails when the file is not what this writes.
import { readFileSync, writeFileSync } from 'node:fs';
import { TRACE_FIELDS_FILE, TRACE_HEADER, traceFieldsSource } from '../web/src/core/engine/trace_fields_source.ts';

writeFileSync(TRACE_FIELDS_FILE, traceFieldsSource(readFileSync(TRACE_HEADER, 'utf8')));
console.log(`wrote ${TRACE_FIELDS_FILE.pathname}`);
