// The source of the schema validators, compiled ahead of time: Ajv turns a JSON Schema into a
// JavaScript function, and its standalone mode writes that function out as a module, so the
// page and the CLI validate without Ajv's compiler and without `new Function` at run time (a
// strict Content-Security-Policy, script-src 'self', forbids it). scripts/gen-validators.ts
// writes the modules; validators.test.ts checks that the files in the tree are what this makes.
import Ajv2020, { type Options } from 'ajv/dist/2020.js';
import standaloneCode from 'ajv/dist/standalone/index.js';

type Schema = Record<string, unknown>;

/** The options of both validators: every problem in one go, not the first (allErrors); each
 *  error with its failing schema and value (verbose), which schema_errors.ts words. */
const COMMON: Options = { allErrors: true, verbose: true, strict: true, code: { source: true, esm: true } };

/** The scenario's: links and apps report only the branch their `type` names (discriminator);
 *  `type` is required in each branch, not beside the discriminator (strictRequired off). */
export const SCENARIO_AJV_OPTIONS: Options = { ...COMMON, discriminator: true, strictRequired: false };
export const LESSON_AJV_OPTIONS: Options = COMMON;

/** Ajv's runtime helpers are CommonJS modules read as `require(...).default`. The module is
 *  imported instead; its default import is the helper itself when a bundler honours
 *  __esModule and the exports object when Node imports it, hence the `?? `. */
function esmHelpers(code: string): string {
  return code.replace(/const (\w+) = require\("(ajv\/dist\/runtime\/\w+)"\)\.default;/g, (_m, name: string, mod: string) => {
    return `import ${name}Module from "${mod}.js";\nconst ${name} = ${name}Module.default ?? ${name}Module;`;
  });
}

/** Ajv's own exports of the function, replaced by one typed export at the end. */
const AJV_EXPORTS = /^"use strict";export const validate = (validate\d+);export default \1;/;

/** The module for one schema: `export default` the validate function, typed for TypeScript
 *  (the code itself is not type-checked: it is Ajv's, hence @ts-nocheck). */
export function validatorSource(schema: Schema, options: Options, origin: string): string {
  const ajv = new Ajv2020(options);
  const code = esmHelpers(standaloneCode(ajv, ajv.compile(schema)));
  const exported = AJV_EXPORTS.exec(code);
  if (exported === null) throw new Error(`${origin}: Ajv's standalone code does not begin with its exports as this generator knows them`);
  if (/\brequire\(/.test(code)) throw new Error(`${origin}: the compiled validator requires a module other than Ajv's runtime helpers`);
  return [
    '/* eslint-disable */',
    `// Generated from ${origin} by scripts/gen-validators.ts (Ajv standalone): do not edit.`,
    '// @ts-nocheck',
    "import type { ErrorObject } from 'ajv';",
    code.slice(exported[0].length),
    `/** Checks a document against the schema; on failure \`errors\` holds every problem. */`,
    `export default ${exported[1]} as ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };`,
    '',
  ].join('\n');
}

/** The schemas it reads and the files it makes. */
export const VALIDATORS: readonly { schema: URL; out: URL; options: Options; origin: string }[] = [
  {
    schema: new URL('./schema.json', import.meta.url),
    out: new URL('./schema_validate.ts', import.meta.url),
    options: SCENARIO_AJV_OPTIONS,
    origin: 'web/src/core/scenarios/schema.json',
  },
  {
    schema: new URL('../lessons/lesson.schema.json', import.meta.url),
    out: new URL('../lessons/lesson_validate.ts', import.meta.url),
    options: LESSON_AJV_OPTIONS,
    origin: 'web/src/core/lessons/lesson.schema.json',
  },
];
