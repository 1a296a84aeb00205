import { describe, expect, it } from 'vitest';
import { decodePermalink, encodePermalink } from './permalink.ts';

describe('permalinks', () => {
  it('round-trips a scenario, its parameters, rules and capture point', () => {
    const p = {
      scenario: 'nfc-bridge-1080',
      sets: ['hosts.appliance.stack.tcp_rto_initial_ms=5000', 'links.nfc.rate_kbps=424'],
      rules: [
        { action: 'drop' as const, link: 'nfc', dir: 'ab' as const, nth: 3 },
        { action: 'delay' as const, link: 'eth', dir: 'ba' as const, nth: 1, delayUs: 200000 },
      ],
      link: 1,
    };
    const back = decodePermalink(encodePermalink(p));
    expect(back.problems).toEqual([]);
    expect(back.link).toEqual(p);
  });

  it('keeps capture point 0 (not always the default: nfc-bridge-1080 opens on link 1) and leaves out an absent one', () => {
    const p = { scenario: 'nfc-bridge-1080', sets: [], rules: [] };
    expect(encodePermalink({ ...p, link: 0 })).toBe('#s=nfc-bridge-1080&link=0');
    expect(decodePermalink(encodePermalink({ ...p, link: 0 })).link.link).toBe(0);
    expect(encodePermalink(p)).toBe('#s=nfc-bridge-1080');
    expect(decodePermalink(encodePermalink(p)).link.link).toBeUndefined();
  });

  it('names what is wrong in a broken URL and keeps the rest', () => {
    const back = decodePermalink('#s=arduino-slip&set=seed&rule=drop:serial:xy:1&rule=drop:serial:ab:2&link=-1');
    expect(back.link.scenario).toBe('arduino-slip');
    expect(back.link.rules).toEqual([{ action: 'drop', link: 'serial', dir: 'ab', nth: 2 }]);
    expect(back.problems).toEqual([
      'URL: set "seed" is not path=value',
      'URL: rule "drop:serial:xy:1" is not action:link:ab|ba:nth[:delay_us]',
      'URL: link "-1" is not a link number',
    ]);
  });
});
