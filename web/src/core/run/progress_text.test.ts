import { describe, expect, it } from 'vitest';
import { progressText } from './progress_text.ts';

describe('progressText', () => {
  it('says frames and virtual time of the duration, thousands apart', () => {
    expect(progressText({ frames: 12340, nowUs: 4_200_000, durationUs: 10_000_000 })).toBe('Running: 12\u00a0340 frames, 4.2 s of 10 s');
    expect(progressText({ frames: 1_027_405, nowUs: 61_000_000, durationUs: 120_000_000 })).toBe('Running: 1\u00a0027\u00a0405 frames, 61.0 s of 120 s');
  });

  it('keeps a decimal for a duration that is not whole seconds, and counts one frame', () => {
    expect(progressText({ frames: 1, nowUs: 1_000, durationUs: 2_500_000 })).toBe('Running: 1 frame, 0.0 s of 2.5 s');
    expect(progressText({ frames: 999, nowUs: 0, durationUs: 1_000_000 })).toBe('Running: 999 frames, 0.0 s of 1 s');
  });

  it('says the run is starting before its first slice', () => {
    expect(progressText(null)).toBe('Running: starting');
  });
});
