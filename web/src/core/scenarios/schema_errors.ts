// Ajv's errors in the words of docs/scenario-format.md. Ajv says "must be <= 4000000" about
// "/links/0/baud"; a person wants "links[0].baud: must be an integer between 50 and 4000000".
// So each message is built from the schema that failed (Ajv's `verbose` option hands it
// over), not from Ajv's own text, and one problem gives one message however many keywords
// it broke (a string where an integer is wanted fails only `type`; 3.5 fails `type` and
// maybe `minimum`: both say the same and are merged).

import type { ErrorObject } from 'ajv';

import { parseAddr, parseIp } from './addr.ts';
import { childPath, pointerToPath, type ScenarioError } from './errors.ts';

type Schema = Record<string, unknown>;

// Patterns are regular expressions; people get these phrases instead, with the schema's
// maxLength when it has one.
const PATTERN_PHRASES: Record<string, (max: number | undefined) => string> = {
  '^[a-z][a-z0-9_-]*$': (max) => `a name of at most ${max ?? 15} characters: a lowercase letter, then lowercase letters, digits, "_" or "-"`,
  '^[a-z0-9][a-z0-9-]*$': (max) =>
    `${max === undefined ? '' : `a name of at most ${max} characters: `}a lowercase letter or digit, then lowercase letters, digits or "-"`,
  '^[SAFRPU]+$': (max) => `${max === undefined ? 'one or more' : `one to ${max}`} of the letters S, A, F, R, P, U (SYN, ACK, FIN, RST, PSH, URG)`,
};

export function translateAjvErrors(errors: readonly ErrorObject[], root: Schema): ScenarioError[] {
  const out: ScenarioError[] = [];
  const seen = new Set<string>();
  const push = (path: string, message: string): void => {
    const key = `${path}\u0000${message}`;
    if (!seen.has(key)) {
      seen.add(key);
      out.push({ path, message });
    }
  };
  const combinators = errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf');
  for (const e of errors) {
    // A branch's errors are reported (or not) by the anyOf/oneOf that owns them.
    if (combinators.some((c) => isBranchError(e, c))) continue;
    if (e.keyword === 'anyOf' || e.keyword === 'oneOf') {
      for (const [path, message] of combinatorMessages(e, errors, root)) push(path, message);
    } else {
      const [path, message] = leafMessage(e, root);
      push(path, message);
    }
  }
  return out;
}

function isBranchError(e: ErrorObject, c: ErrorObject): boolean {
  if (e === c || !e.schemaPath.startsWith(`${c.schemaPath}/`)) return false;
  return e.instancePath === c.instancePath || e.instancePath.startsWith(`${c.instancePath}/`);
}

// A union that is not discriminated by `type` (tcp_mss: 0 or 64..65495; latency_us: a
// number or a pair). If the value's JSON type selects one branch, that branch's own errors
// say what is wrong inside it; otherwise the message lists what the value may be.
function combinatorMessages(c: ErrorObject, all: readonly ErrorObject[], root: Schema): Array<[string, string]> {
  const branches = (c.schema as Schema[]) ?? [];
  const parent = c.parentSchema ?? {};
  const t = jsonType(c.data);
  const byType = branches.map((b, i) => ({ b, i })).filter(({ b }) => typeof b.type === 'string' && typeAccepts(b.type, t));
  if (byType.length === 1) {
    const prefix = `${c.schemaPath}/${byType[0]!.i}/`;
    const inner = all.filter((e) => e.schemaPath.startsWith(prefix) && isBranchError(e, c));
    if (inner.length > 0) return inner.map((e) => leafMessage(e, root));
  }
  return [[pointerToPath(c.instancePath), `must be ${expectation(parent, c.data)}`]];
}

function leafMessage(e: ErrorObject, root: Schema): [string, string] {
  const path = pointerToPath(e.instancePath);
  const ps: Schema = e.parentSchema ?? {};
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'required':
      return [childPath(path, String(p.missingProperty)), 'is required'];
    case 'additionalProperties':
      return [childPath(path, String(p.additionalProperty)), unknownField(String(p.additionalProperty), ps)];
    case 'discriminator':
      return discriminatorMessage(path, e, root);
    case 'uniqueItems': {
      const [first, later] = [Number(p.i), Number(p.j)].sort((x, y) => x - y);
      const items = e.data as unknown[];
      return [`${path}[${later}]`, `${JSON.stringify(items[later!])} is listed twice (also ${path}[${first}])`];
    }
    case 'minItems':
    case 'maxItems':
      // A fixed-size tuple ([ab, ba]) is described by its shape, a list by its length.
      if (!Array.isArray(ps.prefixItems)) return [path, countMessage(ps)];
      return [path, `must be ${expectation(ps, e.data)}`];
    case 'type':
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
    case 'enum':
    case 'const':
    case 'pattern':
    case 'minLength':
    case 'maxLength':
    case 'items':
      return [path, `must be ${expectation(ps, e.data)}`];
    default:
      return [path, e.message ?? `fails ${e.keyword}`];
  }
}

/** What a value of this schema must be, as a phrase after "must be". */
export function expectation(s: Schema, data?: unknown, inheritedType?: unknown): string {
  const type = s.type ?? inheritedType;
  if ('const' in s) return formatValue(s.const);
  if (Array.isArray(s.enum)) return `one of: ${s.enum.map((v) => (typeof v === 'string' ? v : formatValue(v))).join(', ')}`;
  if (Array.isArray(s.anyOf)) return (s.anyOf as Schema[]).map((b) => expectation(b, data, type)).join(' or ');
  if (typeof s.pattern === 'string') {
    // An app's `to`: a name or an address; for what looks like an address, parseIp says why not.
    if (s.pattern.startsWith('^([a-z]') && s.pattern.includes('25[0-5]')) {
      const r = typeof data === 'string' && /^[0-9]/.test(data) ? parseIp(data) : null;
      const why = r && !r.ok ? `: ${r.reason}` : '';
      return `a host name (at most 15 characters: a lowercase letter, then lowercase letters, digits, "_" or "-") or an IPv4 address like "10.0.7.2"${why}`;
    }
    // The address's pattern is too long to show; parseAddr says what is wrong with it.
    if (s.pattern.includes('25[0-5]')) {
      const r = typeof data === 'string' ? parseAddr(data) : null;
      const why = r && !r.ok ? `: ${r.reason}` : '';
      return `an IPv4 address and prefix length, like "10.0.7.1/24"${why}`;
    }
    const phrase = PATTERN_PHRASES[s.pattern];
    return phrase ? phrase(typeof s.maxLength === 'number' ? s.maxLength : undefined) : `a string matching ${s.pattern}`;
  }
  switch (type) {
    case 'integer':
    case 'number':
      return rangePhrase(type === 'integer' ? 'an integer' : 'a number', s.minimum, s.maximum);
    case 'string': {
      const what = s.minLength === 1 ? 'a non-empty string' : 'a string';
      return typeof s.maxLength === 'number' ? `${what} of at most ${s.maxLength} characters` : what;
    }
    case 'boolean':
      return 'true or false';
    case 'object':
      return 'an object';
    case 'array':
      if (Array.isArray(s.prefixItems)) {
        const n = s.prefixItems.length;
        return `an array of ${n} values [ab, ba], each ${expectation(s.prefixItems[0] as Schema)}`;
      }
      return 'an array';
    default:
      return 'valid';
  }
}

function rangePhrase(noun: string, min: unknown, max: unknown): string {
  if (typeof min === 'number' && typeof max === 'number') return `${noun} between ${min} and ${max}`;
  if (typeof min === 'number') return `${noun} of at least ${min}`;
  if (typeof max === 'number') return `${noun} of at most ${max}`;
  return noun;
}

function countMessage(s: Schema): string {
  const min = typeof s.minItems === 'number' ? s.minItems : 0;
  const max = typeof s.maxItems === 'number' ? s.maxItems : undefined;
  const entries = (n: number): string => `${n} ${n === 1 ? 'entry' : 'entries'}`;
  if (max === undefined) return `must have at least ${entries(min)}`;
  if (min === 0) return `must have at most ${entries(max)}`;
  return `must have between ${min} and ${entries(max)}`;
}

function unknownField(field: string, ps: Schema): string {
  const props = (ps.properties ?? {}) as Record<string, Schema>;
  // The one field a kind of link forbids that the others have: say why.
  if (field === 'b' && props.type?.const === 'external') return 'unknown field "b": an external link has one end, a; the other is the caller\'s serial port';
  const hint = closest(field, Object.keys(props)) ?? suffixMatch(field, Object.keys(props));
  return hint === null ? `unknown field "${field}"` : `unknown field "${field}" (did you mean "${hint}"?)`;
}

// The link or app `type` is missing or names no kind of link or app.
function discriminatorMessage(path: string, e: ErrorObject, root: Schema): [string, string] {
  const p = e.params as Record<string, unknown>;
  const tag = String(p.tag);
  const data = e.data as Record<string, unknown> | null;
  const where = childPath(path, tag);
  if (p.error === 'tag' && (data === null || typeof data !== 'object' || !(tag in data))) return [where, 'is required'];
  const branches = ((e.parentSchema?.oneOf ?? []) as Schema[]).map((b) => resolveRef(b, root));
  const names = branches.map((b) => ((b.properties as Record<string, Schema>)[tag]?.const as string) ?? '?');
  return [where, `must be one of: ${names.join(', ')}`];
}

function resolveRef(s: Schema, root: Schema): Schema {
  if (typeof s.$ref !== 'string' || !s.$ref.startsWith('#/')) return s;
  let at: unknown = root;
  for (const seg of s.$ref.slice(2).split('/')) at = (at as Schema)[seg];
  return at as Schema;
}

function formatValue(v: unknown): string {
  return JSON.stringify(v);
}

function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

function typeAccepts(schemaType: string, valueType: string): boolean {
  return schemaType === valueType || (schemaType === 'number' && valueType === 'integer');
}

/** The known name nearest to a misspelt one, if it is near enough to be the likely intent. */
export function closest(word: string, candidates: readonly string[]): string | null {
  let best: string | null = null;
  let bestDist = Infinity;
  for (const c of candidates) {
    const d = c.toLowerCase() === word.toLowerCase() ? 0 : editDistance(word, c);
    if (d < bestDist) {
      best = c;
      bestDist = d;
    }
  }
  // One edit in four characters, at most three: "bauds" -> "baud", not "x" -> "mtu".
  return bestDist <= Math.min(3, Math.max(1, Math.floor(word.length / 4))) ? best : null;
}

// "flags" -> "tcp_flags", "rto_min_ms" -> "tcp_rto_min_ms": a field written without its prefix.
function suffixMatch(word: string, candidates: readonly string[]): string | null {
  const hits = candidates.filter((c) => c.endsWith(`_${word}`));
  return hits.length === 1 ? hits[0]! : null;
}

// Levenshtein distance with transpositions counted as one edit (Damerau, restricted).
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}
