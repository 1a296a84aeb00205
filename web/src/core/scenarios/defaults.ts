// Defaults, read from schema.json so the schema stays their one source (the page shows the
// same numbers next to its controls). Some defaults depend on other fields and are not in
// the schema: an NFC link's chunk_bytes (by its rate), capture (every link), and a TCP
// server's connections and backlog (by its host's tcp_max_pcbs).

import schemaJson from './schema.json';
import type { NfcLink, ResolvedScenario, Scenario } from './types.ts';

type Schema = Record<string, unknown>;

export const scenarioSchema = schemaJson as unknown as Schema;

/** The paper's chunk size: 14 bytes at 212 kbit/s, 30 at 424 (10 and 26 bytes of packet). */
export function nfcChunkBytesDefault(rateKbps: NonNullable<NfcLink['rate_kbps']>): number {
  return rateKbps === 424 ? 30 : 14;
}

/** A TCP echo or discard server serves every TCP socket of its host but the listener's at
 *  once (wasm/api/scenario_apps.c), and its backlog is as many. */
export function serverConnectionsDefault(tcpMaxPcbs: number): number {
  return Math.max(1, tcpMaxPcbs - 1);
}

/** The schema's default for one field of one of its $defs: schemaDefault('stack', 'ip_ttl') = 64. */
export function schemaDefault(def: string, field: string): unknown {
  const defs = scenarioSchema.$defs as Record<string, Schema>;
  const props = deref(defs[def] ?? {}).properties as Record<string, Schema> | undefined;
  const sub = props?.[field];
  return sub === undefined ? undefined : deref(sub).default;
}

/**
 * The scenario with every field that has a default filled in, stack configuration
 * included (the values of wasm/stack/host_config.h), so consumers need no defaults of
 * their own. Returns a new object; the result is still a valid scenario. validateScenario()
 * returns the scenario as written, so what a user wrote stays apart from what it implies.
 */
export function applyDefaults(s: Scenario): ResolvedScenario {
  const out = fill(scenarioSchema, structuredClone(s)) as ResolvedScenario;
  for (const l of out.links) {
    if (l.type === 'nfc' && l.chunk_bytes === undefined) l.chunk_bytes = nfcChunkBytesDefault(l.rate_kbps);
    // `count` (default 1) belongs to `nth`; beside `p` it is an error, so it is not added there.
    for (const f of l.faults) if ('p' in f) delete (f as { count?: number }).count;
  }
  if (s.capture === undefined) out.capture = out.links.map((l) => l.name);
  for (const a of out.apps) {
    if (a.type !== 'tcp_echo_server' && a.type !== 'tcp_discard_server') continue;
    const host = out.hosts.find((h) => h.name === a.host);
    if (host) a.connections ??= serverConnectionsDefault(host.stack.tcp_max_pcbs);
    a.backlog ??= a.connections;
  }
  return out;
}

// Follows $ref; in 2020-12 a $ref may have siblings (title, default), which add to the target.
function deref(s: Schema): Schema {
  let out = s;
  while (typeof out.$ref === 'string') {
    const { $ref, ...rest } = out;
    out = { ...lookup($ref as string), ...rest };
  }
  return out;
}

function lookup(ref: string): Schema {
  let at: unknown = scenarioSchema;
  for (const seg of ref.replace(/^#\//, '').split('/')) at = (at as Schema)[seg];
  if (at === undefined) throw new Error(`schema.json: unresolved $ref ${ref}`);
  return at as Schema;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

// Walks the schema beside the value: missing properties get their default (itself filled,
// so `stack: {}` gains every stack field), links and apps follow the branch their `type`
// selects, arrays their items.
function fill(schema: Schema, value: unknown): unknown {
  const s = deref(schema);
  if (Array.isArray(s.oneOf) && isObject(value)) {
    const branch = (s.oneOf as Schema[]).map(deref).find((b) => ((b.properties as Record<string, Schema> | undefined)?.type?.const ?? null) === value.type);
    return branch ? fill(branch, value) : value;
  }
  if (isObject(value) && isObject(s.properties)) {
    const out: Record<string, unknown> = { ...value };
    for (const [k, sub] of Object.entries(s.properties as Record<string, Schema>)) {
      const d = deref(sub);
      if (k in out) out[k] = fill(d, out[k]);
      else if ('default' in d) out[k] = fill(d, structuredClone(d.default));
    }
    return out;
  }
  if (Array.isArray(value) && isObject(s.items)) return value.map((v) => fill(s.items as Schema, v));
  return value;
}
