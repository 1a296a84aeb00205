// Captions and explanations: "{rto}", "{cwnd}" ... filled in from the run at the anchor
// (values.ts), so a changed parameter changes the words. "{{" and "}}" are literal braces.

import type { Values } from './values.ts';

/** The names a caption may use (docs/lessons.md lists what each means and where it exists). */
export const VALUE_NAMES = [
  'time',
  'since',
  'host',
  'state',
  'cwnd',
  'ssthresh',
  'cwnd_before',
  'ssthresh_before',
  'rto',
  'srtt',
  'rttvar',
  'timer',
  'expired',
  'backoff',
  'dupacks',
  'delay',
  'cause',
  'link',
  'no',
  'retransmission',
  'seq',
  'ack',
  'len',
  'segment',
] as const;

const PLACEHOLDER = /\{\{|\}\}|\{([a-z_]+)\}/g;

/** The placeholders a template uses. */
export function placeholders(template: string): string[] {
  return [...template.matchAll(PLACEHOLDER)].flatMap((m) => (m[1] === undefined ? [] : [m[1]]));
}

/** The template with its values; throws (with the name) if one has no value at this anchor. */
export function fillTemplate(template: string, values: Values): string {
  return template.replace(PLACEHOLDER, (all, name: string | undefined) => {
    if (name === undefined) return all[0]!;
    const v = values.get(name);
    if (!v) throw new MissingValueError(name, [...values.keys()]);
    return v.text;
  });
}

export class MissingValueError extends Error {
  constructor(
    readonly field: string,
    available: string[],
  ) {
    super(`{${field}} has no value at this anchor (it has: ${available.join(', ')})`);
  }
}
