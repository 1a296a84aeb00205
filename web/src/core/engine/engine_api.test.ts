// engine.h is the one list of the engine's exports and return codes: the built module
// exports exactly its ENGINE_API functions, engine_module.ts types exactly those, and the
// codes TypeScript compares with are the header's.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ENGINE_ERR_FAILED, ENGINE_ERR_INVALID, ENGINE_OK, loadEngineModule } from './engine_module.ts';

const header = readFileSync(new URL('../../../../wasm/api/engine.h', import.meta.url), 'utf8');
const typings = readFileSync(new URL('./engine_module.ts', import.meta.url), 'utf8');

function headerExports(): string[] {
  return [...header.matchAll(/^ENGINE_API\b[^(]*?\b(engine_\w+)\(/gm)].map((m) => m[1]!).sort();
}

function headerCode(name: string): number {
  const m = new RegExp(`^#define ${name}\\s+\\(?(-?\\d+)\\)?`, 'm').exec(header);
  if (!m) throw new Error(`engine.h has no ${name}`);
  return Number(m[1]);
}

describe('engine API', () => {
  it('the module exports exactly the ENGINE_API functions of engine.h', async () => {
    const mod = (await loadEngineModule()) as unknown as Record<string, unknown>;
    const exported = Object.keys(mod)
      .filter((k) => k.startsWith('_engine_') && typeof mod[k] === 'function')
      .map((k) => k.slice(1))
      .sort();
    expect(headerExports().length).toBeGreaterThan(20);
    expect(exported).toEqual(headerExports());
  });

  it('engine_module.ts types exactly those functions', () => {
    const typed = [...typings.matchAll(/^\s+_(engine_\w+)\(/gm)].map((m) => m[1]!).sort();
    expect(typed).toEqual(headerExports());
  });

  it("the return codes TypeScript compares with are engine.h's", () => {
    expect(ENGINE_OK).toBe(headerCode('ENGINE_OK'));
    expect(ENGINE_ERR_INVALID).toBe(headerCode('ENGINE_ERR_INVALID'));
    expect(ENGINE_ERR_FAILED).toBe(headerCode('ENGINE_ERR_FAILED'));
  });
});
