// schema_types.ts is generated from schema.json: it must be what the generator writes today,
// the generator must write every construct the schema uses as TypeScript in Prettier's layout,
// and a construct it cannot type must stop it with the place named, never become `unknown`.
import { readFileSync } from 'node:fs';
import { format } from 'prettier';
import { describe, expect, it } from 'vitest';
import { SCENARIO_SCHEMA_FILE, SCHEMA_TYPES_FILE, schemaTypesSource, typeName } from './schema_types_source.ts';

const schema = () => JSON.parse(readFileSync(SCENARIO_SCHEMA_FILE, 'utf8'));
const prettierrc = JSON.parse(readFileSync(new URL('../../../../.prettierrc.json', import.meta.url), 'utf8'));
const prettier = (src: string) => format(src, { ...prettierrc, parser: 'typescript' });

/** A schema with one of each construct: $refs to primitive, object and union $defs, enum,
 *  const, tuple, anyOf, nullable, arrays of unions and of inline objects, a long union. */
const SAMPLE = {
  title: 'Doc',
  type: 'object',
  additionalProperties: false,
  required: ['name', 'kind', 'parts'],
  properties: {
    name: { $ref: '#/$defs/name', title: 'Its name' },
    kind: { const: 'doc' },
    level: { enum: ['low', 'high'], default: 'low' },
    stack: { $ref: '#/$defs/stack', default: {} },
    parts: { type: 'array', items: { $ref: '#/$defs/part' } },
    pair: { type: 'array', items: false, prefixItems: [{ type: 'integer' }, { type: 'string' }] },
    mss: { type: 'integer', anyOf: [{ const: 0 }, { minimum: 64 }] },
    either: { anyOf: [{ type: 'integer' }, { type: 'array', items: { type: 'number' } }] },
    seed: { type: ['number', 'null'] },
    mixed: { type: 'array', items: { enum: [1, 'two'] } },
    rows: {
      type: 'array',
      items: { type: 'object', additionalProperties: false, required: ['t'], properties: { t: { type: 'number' }, 'x-y': { type: 'boolean' } } },
    },
    many: { enum: ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((c) => c.repeat(20)) },
  },
  $defs: {
    name: { title: 'Name', description: 'A short name.', type: 'string', maxLength: 15 },
    stack: { type: 'object', additionalProperties: false, properties: { ttl: { type: 'integer', default: 64 } } },
    part: { title: 'Part', discriminator: { propertyName: 'type' }, oneOf: [{ $ref: '#/$defs/textPart' }, { $ref: '#/$defs/image_part' }] },
    textPart: { type: 'object', additionalProperties: false, required: ['type'], properties: { type: { const: 'text' } } },
    image_part: {
      description: 'A picture: one of its words is "quoted", another \'quoted\', and the description is long enough to be wrapped onto a second line - surely.',
      type: 'object',
      additionalProperties: false,
      required: ['type'],
      properties: { type: { const: 'image' }, alt: { type: 'string', default: "it's" } },
    },
  },
};

const SAMPLE_TYPES = `/** Doc */
export interface Scenario {
  /** Its name. A short name. */
  name: string;
  kind: 'doc';
  /** @default 'low' */
  level?: 'low' | 'high';
  /** @default {} */
  stack?: StackConfig;
  parts: Part[];
  pair?: [number, string];
  mss?: number;
  either?: number | number[];
  seed?: number | null;
  mixed?: (1 | 'two')[];
  rows?: {
    t: number;
    'x-y'?: boolean;
  }[];
  many?:
    | 'aaaaaaaaaaaaaaaaaaaa'
    | 'bbbbbbbbbbbbbbbbbbbb'
    | 'cccccccccccccccccccc'
    | 'dddddddddddddddddddd'
    | 'eeeeeeeeeeeeeeeeeeee'
    | 'ffffffffffffffffffff'
    | 'gggggggggggggggggggg';
}

export interface StackConfig {
  /** @default 64 */
  ttl?: number;
}

/** Part */
export type Part = TextPart | ImagePart;

export interface TextPart {
  type: 'text';
}

/**
 * A picture: one of its words is "quoted", another 'quoted', and the description is long enough to
 * be wrapped onto a second line - surely.
 */
export interface ImagePart {
  type: 'image';
  /** @default "it's" */
  alt?: string;
}
`;

/** The sample with one of its $defs replaced. */
function withDef(key: string, def: unknown): Record<string, unknown> {
  return { ...SAMPLE, $defs: { ...SAMPLE.$defs, [key]: def } };
}

describe('scenario types from the schema', () => {
  it('schema_types.ts is up to date with schema.json (run npx tsx scripts/gen-scenario-types.ts)', () => {
    expect(readFileSync(SCHEMA_TYPES_FILE, 'utf8')).toBe(schemaTypesSource(schema()));
  });

  it('writes each construct of the schema as its TypeScript type', () => {
    const src = schemaTypesSource(SAMPLE);
    expect(src.slice(src.indexOf('\n\n') + 2)).toBe(SAMPLE_TYPES);
  });

  it("writes in Prettier's layout, the sample and the scenario's schema alike", async () => {
    for (const src of [schemaTypesSource(SAMPLE), schemaTypesSource(schema())]) expect(await prettier(src)).toBe(src);
  });

  it('names a declaration by the PascalCase of its $def, or by the names the code used first', () => {
    expect(['reference_row', 'tcpEchoServerApp', 'stack', 'tcpNfc', 'match', 'link'].map(typeName)).toEqual([
      'ReferenceRow',
      'TcpEchoServerApp',
      'StackConfig',
      'TcpNfcModel',
      'FaultMatch',
      'Link',
    ]);
  });

  it('refuses what it cannot type, naming the place in the schema', () => {
    const bad: [Record<string, unknown>, string][] = [
      [withDef('name', { allOf: [{ type: 'string' }] }), 'schema #/$defs/name: "allOf" has no TypeScript type here'],
      [withDef('name', { title: 'Name' }), 'schema #/$defs/name: no type'],
      [
        withDef('stack', { type: 'object', properties: { ttl: { type: 'integer' } } }),
        'schema #/$defs/stack: an object type needs "additionalProperties": false',
      ],
      [
        withDef('stack', { type: 'object', additionalProperties: false, required: ['ttl'], properties: { tll: { type: 'integer' } } }),
        'schema #/$defs/stack: required "ttl" is not one of its properties',
      ],
      [withDef('textPart', { $ref: '#/$defs/nothing' }), 'schema #/$defs/textPart: $ref #/$defs/nothing is not one of the $defs'],
      [withDef('name', { type: 'array', prefixItems: [{ type: 'string' }] }), 'schema #/$defs/name: prefixItems needs "items": false'],
      [withDef('name', { type: 'date' }), 'schema #/$defs/name: unknown type "date"'],
      [withDef('image-part', SAMPLE.$defs.image_part), 'schema #/$defs/image-part: its type name ImagePart is also #/$defs/image_part'],
      [withDef('name', { type: 'string', description: 'ends */ early' }), 'schema #/$defs/name: its title or description holds "*/"'],
    ];
    for (const [s, message] of bad) expect(() => schemaTypesSource(s), message).toThrow(message);
  });
});
