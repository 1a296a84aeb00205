// The URL holds the run: the scenario, every changed parameter and every what-if rule (and
// the capture point), so opening a link reproduces the run exactly (runs are deterministic).
//   #s=nfc-bridge-1080&set=hosts.appliance.stack.tcp_rto_initial_ms%3D5000&rule=drop:nfc:ab:3&link=1
import type { WhatIfRule } from './what_if.ts';

export interface Permalink {
  scenario: string;
  sets: string[];
  rules: WhatIfRule[];
  link: number;
}

export function encodePermalink(p: Permalink): string {
  const q = new URLSearchParams();
  q.set('s', p.scenario);
  for (const a of p.sets) q.append('set', a);
  for (const r of p.rules) q.append('rule', [r.action, r.link, r.dir, r.nth, ...(r.action === 'delay' ? [r.delayUs ?? 0] : [])].join(':'));
  if (p.link) q.set('link', String(p.link));
  return `#${q.toString()}`;
}

/** The permalink in a URL hash, and the problems found (each names the bad part). */
export function decodePermalink(hash: string): { link: Partial<Permalink>; problems: string[] } {
  const q = new URLSearchParams(hash.replace(/^#/, ''));
  const problems: string[] = [];
  const out: Partial<Permalink> = {};
  const s = q.get('s');
  if (s !== null) out.scenario = s;
  out.sets = q.getAll('set').filter((a) => {
    if (a.includes('=')) return true;
    problems.push(`URL: set "${a}" is not path=value`);
    return false;
  });
  out.rules = [];
  for (const text of q.getAll('rule')) {
    const [action, link, dir, nth, delay] = text.split(':');
    const n = Number(nth);
    const d = Number(delay);
    if ((action !== 'drop' && action !== 'delay') || !link || (dir !== 'ab' && dir !== 'ba') || !Number.isInteger(n) || n < 1 || (action === 'delay' && !(d > 0))) {
      problems.push(`URL: rule "${text}" is not action:link:ab|ba:nth[:delay_us]`);
      continue;
    }
    out.rules.push(action === 'drop' ? { action, link, dir, nth: n } : { action, link, dir, nth: n, delayUs: d });
  }
  const link = q.get('link');
  if (link !== null) {
    const n = Number(link);
    if (Number.isInteger(n) && n >= 0) out.link = n;
    else problems.push(`URL: link "${link}" is not a link number`);
  }
  return { link: out, problems };
}
