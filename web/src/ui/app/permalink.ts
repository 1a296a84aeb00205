// The URL holds the run: the scenario, every changed parameter and every what-if rule (and
// the capture point), so opening a link reproduces the run exactly (runs are deterministic).
//   #s=nfc-bridge-1080&set=hosts.appliance.stack.tcp_rto_initial_ms%3D5000&rule=drop:nfc:ab:3&link=1
// A lesson: #lesson=retransmission-timer&step=3 (and any sets and rules as above); one
// opened from a file carries its JSON: #lessondoc=%7B%22version%22...&step=1.
import type { WhatIfRule } from '../../core/run/what_if.ts';

/** How a lesson shows in the page's scenarioName and picker (lesson_player.ts uses it too). */
export const LESSON_PREFIX = 'lesson:';

export interface Permalink {
  /** a shipped scenario's name; with a lesson, the lesson's name after "lesson:" */
  scenario: string;
  /** the lesson's step shown, 0-based (1-based in the URL, as the panel counts) */
  step?: number;
  /** a lesson that is not shipped (opened from a file): its JSON travels in the link */
  lessonText?: string;
  /** a replay's run shown in the views */
  replayRun?: string;
  sets: string[];
  rules: WhatIfRule[];
  /** the capture point in view; absent: the scenario's default (defaultCapturePoint) */
  link?: number;
}

export function encodePermalink(p: Permalink): string {
  const q = new URLSearchParams();
  if (p.scenario.startsWith(LESSON_PREFIX)) {
    if (p.lessonText !== undefined) q.set('lessondoc', p.lessonText);
    else q.set('lesson', p.scenario.slice(LESSON_PREFIX.length));
    q.set('step', String((p.step ?? 0) + 1));
  } else q.set('s', p.scenario);
  for (const a of p.sets) q.append('set', a);
  for (const r of p.rules) q.append('rule', [r.action, r.link, r.dir, r.nth, ...(r.action === 'delay' ? [r.delayUs ?? 0] : [])].join(':'));
  if (p.link !== undefined) q.set('link', String(p.link));
  if (p.replayRun) q.set('run', p.replayRun);
  return `#${q.toString()}`;
}

/** The permalink in a URL hash, and the problems found (each names the bad part). */
export function decodePermalink(hash: string): { link: Partial<Permalink>; problems: string[] } {
  const q = new URLSearchParams(hash.replace(/^#/, ''));
  const problems: string[] = [];
  const out: Partial<Permalink> = {};
  const s = q.get('s');
  if (s !== null) out.scenario = s;
  const lesson = q.get('lesson');
  const lessonText = q.get('lessondoc');
  if (lessonText !== null) out.lessonText = lessonText;
  if (lesson !== null || lessonText !== null) {
    out.scenario = LESSON_PREFIX + (lesson ?? '');
    const step = Number(q.get('step') ?? '1');
    if (Number.isInteger(step) && step >= 1) out.step = step - 1;
    else problems.push(`URL: step "${q.get('step')}" is not a step number (1, 2, ...)`);
  }
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
    if (
      (action !== 'drop' && action !== 'delay') ||
      !link ||
      (dir !== 'ab' && dir !== 'ba') ||
      !Number.isInteger(n) ||
      n < 1 ||
      (action === 'delay' && !(d > 0))
    ) {
      problems.push(`URL: rule "${text}" is not action:link:ab|ba:nth[:delay_us]`);
      continue;
    }
    out.rules.push(action === 'drop' ? { action, link, dir, nth: n } : { action, link, dir, nth: n, delayUs: d });
  }
  const run = q.get('run');
  if (run) out.replayRun = run;
  const link = q.get('link');
  if (link !== null) {
    const n = Number(link);
    if (Number.isInteger(n) && n >= 0) out.link = n;
    else problems.push(`URL: link "${link}" is not a link number`);
  }
  return { link: out, problems };
}
