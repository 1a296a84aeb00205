// `--set path=value` and the page's URL parameters (docs/scenario-format.md, "Overriding
// fields"): `hosts.pc.stack.tcp_rto_initial_ms=5000`, `links.nfc.faults.0.p=0.1`, `seed=7`.
// This only edits the document; the caller validates the result as a whole, which is where
// a wrong field name or value is reported. The input may come from a URL, so nothing here
// trusts it: no prototype is ever written through (`__proto__` becomes a plain field that
// validation then refuses as unknown).

import { formatPath, type PathSegment } from './errors.ts';
import { readJson } from './json_text.ts';

export class ScenarioSetError extends Error {
  override name = 'ScenarioSetError';
}

type Container = Record<string, unknown> | unknown[];

const INDEX = /^(0|[1-9][0-9]*)$/;

/**
 * Returns a copy of `doc` with the field named by `assignment` ("path=value") set. The
 * value is read as JSON when it parses as JSON, else as a string. Members missing along
 * the path are created as objects (`hosts.pc.stack.x=1` where pc has no stack). Throws
 * ScenarioSetError for a missing "=", an empty path segment, a path through a value that
 * is not an object or array, an array index out of range, or an unknown element name.
 */
export function applySet(doc: unknown, assignment: string): unknown {
  return applySetAt(doc, assignment).doc;
}

/** applySet(), and the field it set as validation errors name it ("links[0].baud"). */
export function applySetAt(doc: unknown, assignment: string): { doc: unknown; path: string } {
  const eq = assignment.indexOf('=');
  if (eq < 0) throw new ScenarioSetError(`--set "${assignment}": expected path=value, e.g. links.serial0.baud=9600`);
  const path = assignment.slice(0, eq).trim();
  const value = parseValue(assignment.slice(eq + 1), assignment);
  const segments = path.split('.');
  if (path === '' || segments.some((s) => s === ''))
    throw new ScenarioSetError(`--set "${assignment}": the path "${path}" has an empty part; write fields separated by single dots`);
  if (!isContainer(doc) || Array.isArray(doc)) throw new ScenarioSetError(`--set "${assignment}": the scenario is not a JSON object`);

  const root = structuredClone(doc) as Record<string, unknown>;
  const resolved: PathSegment[] = [];
  let at: Container = root;
  for (let i = 0; i < segments.length - 1; i++) {
    const where = segments.slice(0, i + 1).join('.');
    const key = locate(at, segments[i]!, where, assignment);
    resolved.push(Array.isArray(at) ? Number(key) : key);
    let next: unknown = Object.hasOwn(at, key) ? (at as Record<string, unknown>)[key] : undefined;
    if (next === undefined) {
      // Only an object member may be created: its name says what it is. An element
      // reached by index or name must exist (locate() checked), so this is an object's.
      if (INDEX.test(segments[i + 1]!)) throw new ScenarioSetError(`--set "${assignment}": ${where} is absent, so it has no element ${segments[i + 1]}`);
      next = {};
      define(at, key, next);
    }
    if (!isContainer(next)) throw new ScenarioSetError(`--set "${assignment}": ${where} is ${describe(next)}, which has no field "${segments[i + 1]}"`);
    at = next;
  }
  const last = segments[segments.length - 1]!;
  const key = locate(at, last, path, assignment);
  resolved.push(Array.isArray(at) ? Number(key) : key);
  define(at, key, value);
  return { doc: root, path: formatPath(resolved) };
}

/** JSON when it parses (5000, 0.1, true, null, [1, 2], "quoted"), else the text itself. JSON
 *  that a scenario file could not hold (a key twice, a lone \ud800: the engine's reader,
 *  json_text.ts) is refused as the file would be, not let through by JSON.parse. */
function parseValue(text: string, assignment: string): unknown {
  try {
    JSON.parse(text);
  } catch {
    return text;
  }
  const r = readJson(text);
  if (r.ok) return r.doc.value;
  const e = r.error;
  throw new ScenarioSetError(`--set "${assignment}": the value, at column ${e.column}: ${e.path === '' ? '' : `${e.path}: `}${e.message}`);
}

// The key of one path segment in a container: an object's member name as given; an
// array's element by index (within range) or by the `name` of one of its elements.
function locate(at: Container, segment: string, where: string, assignment: string): string {
  if (!Array.isArray(at)) return segment;
  if (INDEX.test(segment)) {
    if (Number(segment) < at.length) return segment;
    const has = at.length === 0 ? 'it is empty' : `it has ${at.length} (0 .. ${at.length - 1})`;
    throw new ScenarioSetError(`--set "${assignment}": ${parentOf(where)} has no element ${segment}; ${has}`);
  }
  const i = at.findIndex((e) => isContainer(e) && !Array.isArray(e) && e.name === segment);
  if (i >= 0) return String(i);
  const names = at.flatMap((e) => (isContainer(e) && !Array.isArray(e) && typeof e.name === 'string' ? [e.name] : []));
  const list = names.length > 0 ? ` (names: ${names.join(', ')})` : '';
  throw new ScenarioSetError(`--set "${assignment}": ${parentOf(where)} has no element named "${segment}"${list}`);
}

function parentOf(where: string): string {
  const dot = where.lastIndexOf('.');
  return dot < 0 ? 'the scenario' : where.slice(0, dot);
}

// An own, plain data property: assigning `obj["__proto__"] = v` would set the prototype.
function define(at: Container, key: string, value: unknown): void {
  Object.defineProperty(at, key, { value, writable: true, enumerable: true, configurable: true });
}

function isContainer(v: unknown): v is Container {
  return typeof v === 'object' && v !== null;
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (typeof v === 'string') return `the string ${JSON.stringify(v)}`;
  return `${typeof v === 'number' ? 'the number' : typeof v === 'boolean' ? 'the boolean' : 'the value'} ${String(v)}`;
}
