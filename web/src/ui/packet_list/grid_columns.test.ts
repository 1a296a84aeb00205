import { describe, expect, it } from 'vitest';
import { COLUMNS, fitColumns, GIVE_WAY } from './grid_columns.ts';

describe('packet list columns', () => {
  it('a wide pane shows all eight', () => {
    const fit = fitColumns(1400, 13, 4, 9);
    expect(fit.columns).toEqual([...COLUMNS]);
    expect(fit.hidden).toEqual([]);
    expect(fit.template.split(' minmax').length).toBe(3); // Info and Stack says grow
  });

  it('a projector pane keeps No., Info and Stack says, giving way in order', () => {
    // 17 px presenter type in the list pane of a 1280 px window
    const fit = fitColumns(660, 17, 2, 8);
    expect(fit.columns).toContain('No.');
    expect(fit.columns).toContain('Info');
    expect(fit.columns).toContain('Stack says');
    expect(fit.hidden.length).toBeGreaterThan(0);
    expect(fit.hidden).toEqual(GIVE_WAY.slice(0, fit.hidden.length));
  });

  it('however narrow, the three stay', () => {
    const fit = fitColumns(100, 17, 6, 10);
    expect(fit.columns).toEqual(['No.', 'Info', 'Stack says']);
    expect(fit.hidden).toEqual([...GIVE_WAY]);
  });

  it('wider type hides more columns in the same pane', () => {
    expect(fitColumns(900, 17, 3, 8).hidden.length).toBeGreaterThan(fitColumns(900, 13, 3, 8).hidden.length);
  });
});
