// Same scenario and seed, same trace: every shipped scenario run twice natively and once in
// wasm gives one hash. The native engine must be built (npm test builds it): a missing
// binary fails the test rather than skipping it.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runScenario } from '../web/src/core/engine/run.ts';
import { readScenarioInput } from './scenario_input.ts';
import { shippedScenarios } from './shipped.ts';

const NATIVE = fileURLToPath(new URL('../build/native/stackscope-engine', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'stackscope-det-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function nativeHash(file: string): { hash: string; frames: number } {
  return JSON.parse(execFileSync(NATIVE, [file], { encoding: 'utf8' })) as { hash: string; frames: number };
}

describe('determinism', () => {
  it('the native engine is built', () => {
    expect(existsSync(NATIVE)).toBe(true);
  });

  const all = shippedScenarios();
  it('ships the three scenarios of the issue', () => {
    expect(all.map((s) => s.name).sort()).toEqual(['arduino-slip', 'ethernet-bulk-lossy', 'nfc-bridge-1080']);
  });

  for (const s of all) {
    it(`${s.name}: native twice and wasm once give one trace hash`, async () => {
      const input = readScenarioInput(s.name, [], undefined);
      const file = join(dir, `${s.name}.json`);
      writeFileSync(file, input.json);
      const n1 = nativeHash(file);
      const n2 = nativeHash(file);
      const w = await runScenario(input.json);
      expect(n1.frames).toBeGreaterThan(10);
      expect(w.trace.frames.length).toBe(n1.frames);
      expect(n2.hash).toBe(n1.hash);
      expect(w.hash).toBe(n1.hash);
    });
  }

  it('another seed gives another trace where chance plays a part', async () => {
    const a = readScenarioInput('ethernet-bulk-lossy', [], '1');
    const b = readScenarioInput('ethernet-bulk-lossy', [], '2');
    const [ra, rb] = [await runScenario(a.json), await runScenario(b.json)];
    expect(ra.hash).not.toBe(rb.hash);
  });
});
