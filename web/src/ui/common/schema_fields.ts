// The parameter controls come from the scenario schema: each field's kind, range, choices,
// default, title and description, so the page shows every parameter the format has with
// the words the schema uses, and never a range of its own.
import { scenarioSchema } from '../../core/scenarios/defaults.ts';

type Schema = Record<string, unknown>;

export interface FieldSpec {
  key: string;
  title: string;
  description: string;
  kind: 'integer' | 'number' | 'boolean' | 'enum';
  min?: number;
  max?: number;
  choices?: (string | number)[];
  default?: unknown;
  /** A field that is a pair ([end a, end b], as the NFC link's module_buffer): the element
   *  this control edits; the pair is set whole. */
  index?: 0 | 1;
}

const defs = (scenarioSchema as { $defs: Record<string, Schema> }).$defs;

function deref(s: Schema): Schema {
  let cur = s;
  const seen = new Set<string>();
  while (typeof cur.$ref === 'string' && !seen.has(cur.$ref)) {
    seen.add(cur.$ref);
    const target = defs[(cur.$ref as string).replace('#/$defs/', '')] ?? {};
    const { $ref: _ignored, ...rest } = cur;
    cur = { ...target, ...rest };
  }
  return cur;
}

function specOf(key: string, raw: Schema): FieldSpec | null {
  const s = deref(raw);
  const base = {
    key,
    title: typeof s.title === 'string' ? s.title : key,
    description: typeof s.description === 'string' ? s.description : '',
    default: s.default,
  };
  if (Array.isArray(s.enum)) return { ...base, kind: 'enum', choices: s.enum as (string | number)[] };
  if (s.type === 'boolean') return { ...base, kind: 'boolean' };
  if (s.type === 'integer' || s.type === 'number') {
    const spec: FieldSpec = { ...base, kind: s.type };
    if (typeof s.minimum === 'number') spec.min = s.minimum;
    if (typeof s.maximum === 'number') spec.max = s.maximum;
    if (typeof s.exclusiveMinimum === 'number') spec.min = s.exclusiveMinimum;
    return spec;
  }
  if (Array.isArray(s.anyOf)) {
    // latency_us: a number or [ab, ba]; the control edits the single number.
    const num = (s.anyOf as Schema[]).map(deref).find((b) => b.type === 'integer');
    if (num) return specOf(key, { ...num, title: base.title, description: base.description, default: base.default });
  }
  return null;
}

/** A pair of numbers, one per end ([a, b]): a control for each element. */
function pairSpecs(key: string, raw: Schema): FieldSpec[] {
  const s = deref(raw);
  const items = s.prefixItems;
  if (s.type !== 'array' || !Array.isArray(items) || items.length !== 2) return [];
  const title = typeof s.title === 'string' ? s.title : key;
  const dflt = Array.isArray(s.default) ? (s.default as unknown[]) : [];
  return ([0, 1] as const).flatMap((i) => {
    const spec = specOf(key, { ...(items[i] as Schema), title: `${title}, end ${'ab'[i]}`, description: s.description, default: dflt[i] });
    return spec ? [{ ...spec, index: i }] : [];
  });
}

/** The editable fields of one of the schema's $defs, minus `skip`: scalars, and a control
 *  per element of a pair. */
export function fieldsOf(defName: string, skip: readonly string[] = []): FieldSpec[] {
  const def = deref(defs[defName] ?? {});
  const props = (def.properties ?? {}) as Record<string, Schema>;
  return Object.entries(props)
    .filter(([k]) => !skip.includes(k))
    .flatMap(([k, v]) => {
      const one = specOf(k, v);
      return one ? [one] : pairSpecs(k, v);
    });
}

/** The $defs name of a link or app variant by its `type`. */
export function defForType(group: 'link' | 'app', type: string): string {
  const camel = type.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
  return group === 'link' ? `${camel}Link` : `${camel}App`;
}

/** Fields of the top level the page lets you change. */
export function topFields(): FieldSpec[] {
  const props = (scenarioSchema as { properties: Record<string, Schema> }).properties;
  return ['seed', 'duration_ms'].map((k) => specOf(k, props[k]!)).filter((f): f is FieldSpec => f !== null);
}
