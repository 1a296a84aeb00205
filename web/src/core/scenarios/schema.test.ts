import { readFileSync } from 'node:fs';

import Ajv2020 from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';

import { scenarioSchema } from './defaults.ts';

type Schema = Record<string, any>;
const defs = scenarioSchema.$defs as Record<string, Schema>;

function deref(s: Schema): Schema {
  if (typeof s.$ref !== 'string') return s;
  const { $ref, ...rest } = s;
  return { ...deref(defs[$ref.split('/').pop()!]!), ...rest };
}

// Every object schema in the file, with where it is.
function objects(): Array<[string, Schema]> {
  const out: Array<[string, Schema]> = [['(root)', scenarioSchema]];
  for (const [k, d] of Object.entries(defs)) if (d.type === 'object') out.push([k, d]);
  return out;
}

describe('schema.json', () => {
  it('compiles under Ajv strict mode, with the discriminator', () => {
    const ajv = new Ajv2020({ strict: true, strictRequired: false, discriminator: true, allErrors: true });
    expect(() => ajv.compile(scenarioSchema)).not.toThrow();
  });

  it('refuses unknown fields in every object', () => {
    for (const [where, o] of objects()) {
      if (o.discriminator) continue; // the branches say it
      expect(o.additionalProperties, where).toBe(false);
    }
  });

  it('describes every field for people (the page builds its controls from it)', () => {
    for (const [where, o] of objects()) {
      for (const [k, p] of Object.entries((o.properties ?? {}) as Record<string, Schema>)) {
        if (k === 'type' && 'const' in p) continue; // the discriminator
        const d = deref(p);
        expect(d.title ?? d.description, `${where}.${k}`).toBeTypeOf('string');
      }
    }
  });

  it('has a place for every field docs/scenario-format.md names in its tables', () => {
    const doc = readFileSync(new URL('../../../../docs/scenario-format.md', import.meta.url), 'utf8');
    const known = new Set<string>();
    const walk = (v: unknown): void => {
      if (Array.isArray(v)) v.forEach(walk);
      else if (v && typeof v === 'object') {
        for (const [k, x] of Object.entries(v)) {
          if (k === 'properties') Object.keys(x as object).forEach((n) => known.add(n));
          if (k === 'const' && typeof x === 'string') known.add(x);
          walk(x);
        }
      }
    };
    walk(scenarioSchema);
    // The first cell of each table row: `field` or `field`, `field` (app types too).
    const named = doc
      .split('\n')
      .filter((l) => l.startsWith('| `'))
      .flatMap((l) => [...l.split('|')[1]!.matchAll(/`([a-z_0-9]+)`/g)].map((m) => m[1]!));
    expect(named.length).toBeGreaterThan(60);
    expect(named.filter((n) => !known.has(n))).toEqual([]);
  });
});
