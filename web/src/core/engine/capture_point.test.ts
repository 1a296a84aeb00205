// The capture point a run opens on, as the engine describes the world's links.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { askedCapturePoint, defaultCapturePoint } from './capture_point.ts';
import { runScenario } from './run.ts';

const shipped = (name: string) => JSON.parse(readFileSync(new URL(`../scenarios/shipped/${name}.json`, import.meta.url), 'utf8')) as Record<string, unknown>;

describe('defaultCapturePoint', () => {
  it("is the first link of the scenario's capture list, not links[0]", async () => {
    const { world } = await runScenario(JSON.stringify(shipped('nfc-bridge-1080')));
    expect(world.links.map((l) => l.name)).toEqual(['nfc', 'eth']);
    expect(defaultCapturePoint(world)).toBe(1);
    const nfcFirst = await runScenario(JSON.stringify({ ...shipped('nfc-bridge-1080'), capture: ['nfc', 'eth'] }));
    expect(defaultCapturePoint(nfcFirst.world)).toBe(0);
  });

  it('is link 0 when the scenario captures no link', async () => {
    const { world } = await runScenario(JSON.stringify({ ...shipped('nfc-bridge-1080'), capture: [] }));
    expect(world.links.every((l) => l.capture_interface < 0)).toBe(true);
    expect(defaultCapturePoint(world)).toBe(0);
  });
});

describe('askedCapturePoint', () => {
  it('is the link a permalink asks for, or the default and a problem naming the link that is not there', async () => {
    const { world } = await runScenario(JSON.stringify(shipped('nfc-bridge-1080')));
    expect(askedCapturePoint(world, 0)).toEqual({ link: 0, problem: null });
    expect(askedCapturePoint(world, 1)).toEqual({ link: 1, problem: null });
    expect(askedCapturePoint(world, 2)).toEqual({ link: 1, problem: 'link 2 is not a link of the scenario (it has 2: 0 to 1); showing link 1' });
  });
});
