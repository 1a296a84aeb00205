import { describe, expect, it } from 'vitest';
import { secondsDecimals, secondsTickFormat } from './time_axis.ts';
import { formatDuration } from '../../core/run/time_format.ts';

describe('time axis and durations', () => {
  it('prints as many decimals as the step needs', () => {
    expect([secondsDecimals(1e6), secondsDecimals(5e5), secondsDecimals(2e5), secondsDecimals(20), secondsDecimals(0)]).toEqual([0, 1, 1, 5, 0]);
    expect([0, 500_000, 1_000_000].map(secondsTickFormat([0, 500_000]))).toEqual(['0.0', '0.5', '1.0']);
  });

  it('durations for labels', () => {
    expect([formatDuration(1_000_000), formatDuration(200_000), formatDuration(2500), formatDuration(350)]).toEqual(['1.0 s', '200 ms', '2.5 ms', '350 µs']);
  });
});
