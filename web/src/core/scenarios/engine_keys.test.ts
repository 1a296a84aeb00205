// The engine's reader (wasm/api) lists the fields it accepts in C arrays; schema.json is the
// one source of which fields exist. Each array must hold exactly the schema's properties of
// its object, in the schema's order (the order a misspelt field's hint is looked for in).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { scenarioSchema } from './defaults.ts';

const api = (file: string) => readFileSync(new URL(`../../../../wasm/api/${file}`, import.meta.url), 'utf8');

/** The strings of `static const char *const NAME[] = { "a", "b", ..., NULL };` in C text. */
function cArray(text: string, name: string): string[] {
  const m = new RegExp(`\\b${name}\\[\\]\\s*=\\s*\\{([^}]*)\\}`).exec(text);
  if (!m) throw new Error(`no array ${name}`);
  return [...m[1]!.matchAll(/"([^"]*)"/g)].map((x) => x[1]!);
}

type Props = { properties?: Record<string, unknown> };
const defs = (scenarioSchema as unknown as { $defs: Record<string, Props>; properties: Record<string, unknown> }).$defs;
const props = (o: Props | undefined): string[] => Object.keys(o?.properties ?? {});

describe("the engine's field lists are the schema's", () => {
  const cases: [string, string, string[]][] = [
    ['scenario_load.c', 'sl_top_keys', Object.keys((scenarioSchema as unknown as Props).properties ?? {})],
    ['scenario_load.c', 'sl_host_keys', props(defs.host)],
    ['scenario_load.c', 'sl_bridge_keys', props(defs.bridge)],
    ['scenario_load.c', 'sl_serial_keys', props(defs.serialLink)],
    ['scenario_load.c', 'sl_nfc_keys', props(defs.nfcLink)],
    ['scenario_load.c', 'sl_eth_keys', props(defs.ethernetLink)],
    ['scenario_load.c', 'sl_ext_keys', props(defs.externalLink)],
    ['scenario_stack.c', 'sk_keys', props(defs.stack)],
  ];
  for (const [file, name, schema] of cases)
    it(`${file} ${name}`, () => {
      expect(schema.length).toBeGreaterThan(1);
      expect(cArray(api(file), name)).toEqual(schema);
    });
});
