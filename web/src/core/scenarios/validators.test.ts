// schema_validate.ts and lesson_validate.ts are Ajv's validators compiled ahead of time from
// their schemas: each must be what scripts/gen-validators.ts writes today, and the page's
// code must not compile a schema at run time (a strict CSP forbids `new Function`).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { VALIDATORS, validatorSource } from './validator_source.ts';
import { validateScenario } from './validate.ts';

describe('schema validators compiled ahead of time', () => {
  for (const v of VALIDATORS) {
    it(`${v.out.pathname.replace(/.*web\/src\//, '')} is up to date with its schema (run npx tsx scripts/gen-validators.ts)`, () => {
      expect(readFileSync(v.out, 'utf8')).toBe(validatorSource(JSON.parse(readFileSync(v.schema, 'utf8')), v.options, v.origin));
    });
  }

  it('hold no require() and no code generation: the module is plain JavaScript', () => {
    for (const v of VALIDATORS) {
      const src = readFileSync(v.out, 'utf8');
      expect(src).not.toMatch(/\brequire\(/);
      expect(src).not.toMatch(/new Function|\beval\(/);
    }
  });

  it("uses Ajv's runtime helpers: a name of 64 characters is refused by maxLength, a repeated capture by uniqueItems", () => {
    const base = {
      version: 1,
      name: 'x'.repeat(64),
      title: 't',
      duration_ms: 1000,
      hosts: [
        { name: 'a', addr: '10.0.0.1/24' },
        { name: 'b', addr: '10.0.0.2/24' },
      ],
      links: [{ name: 's', type: 'serial', a: 'a', b: 'b', baud: 9600 }],
      capture: ['s', 's'],
    };
    const r = validateScenario(base);
    expect(r.ok ? [] : r.errors.map((e) => e.path)).toEqual(['name', 'capture[1]']);
    expect(validateScenario({ ...base, name: 'x'.repeat(63), capture: ['s'] }).ok).toBe(true);
  });
});
