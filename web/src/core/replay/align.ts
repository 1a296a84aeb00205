// A seed's packet list aligned with ours, row by row (issue 17, "row-by-row figures"). Both
// lists are read the same way, from the columns Wireshark prints (the seed's rows are text),
// so neither side is favoured.
//
// The rule, stated once (docs/replays.md says the same):
// - A row is a segment: its direction (source → destination address; an ARP row: the address
//   it speaks for), its flags (TCP's, or ARP's "who-has" / "is-at"), its relative Seq, Ack
//   and Len (as Wireshark prints them, RFC 793 section 3.3 numbers from the ISN) and its
//   frame Length.
// - Two rows can stand for each other only when they go the same way with the same flags.
//   Such a pair is "matched" when Seq, Ack, Len and Length agree too, else "differing" (the
//   fields that differ named). Time is shown, never required to agree: the seed's clock is
//   a wall clock, ours virtual.
// - A seed row with no row of ours is "missing"; a row of ours with none of the seed's is
//   "extra". The pairs are chosen to keep both lists in order and to agree the most (an
//   edit-distance alignment: a matched pair counts most, then a pair by how many fields
//   agree; a row left alone counts nothing), ties broken toward pairing earlier rows.

/** One row of a packet list, as the alignment reads it. */
export interface AlignRow {
  no: number;
  /** seconds from the list's first TCP row */
  time: number;
  source: string;
  destination: string;
  protocol: string;
  length: number;
  info: string;
}

/** The fields of a row the alignment compares. */
export interface Segment {
  direction: string;
  flags: string;
  seq: number | null;
  ack: number | null;
  len: number | null;
  length: number;
}

export type AlignField = 'seq' | 'ack' | 'len' | 'length';
const FIELDS: readonly AlignField[] = ['seq', 'ack', 'len', 'length'];

export type AlignMark = 'matched' | 'differing' | 'missing' | 'extra';

export interface AlignedRow {
  mark: AlignMark;
  seed: (AlignRow & Segment) | null;
  ours: (AlignRow & Segment) | null;
  /** the fields that differ (a differing pair only) */
  differs: AlignField[];
}

export interface Alignment {
  rows: AlignedRow[];
  matched: number;
  differing: number;
  missing: number;
  extra: number;
  /** the seed's rows (matched + differing + missing) */
  seedRows: number;
}

const TCP_INFO = /(?:^|\] )\d+ → \d+ \[([A-Z, ]+)\](?: Seq=(\d+))?(?: Ack=(\d+))?.*? Len=(\d+)/;
// The seed's Wireshark wrote "who has" in lower case at times; the words are the same.
const ARP_ASK = /^Who has (\S+)\? Tell (\S+)$/i;
const ARP_ANSWER = /^(\S+) is at /;

function num(s: string | undefined): number | null {
  return s === undefined ? null : Number(s);
}

/** A row's segment, read from its columns. A row that is neither TCP nor ARP is its
 *  protocol and Info as they stand. */
export function segmentOf(r: AlignRow): Segment {
  const direction = `${r.source} → ${r.destination}`;
  const tcp = r.protocol === 'TCP' ? TCP_INFO.exec(r.info) : null;
  if (tcp) return { direction, flags: tcp[1]!, seq: num(tcp[2]), ack: num(tcp[3]), len: num(tcp[4]), length: r.length };
  // ARP's source column is a MAC or its vendor name, which the seed's list shortens: the
  // address it speaks for (RFC 826's sender protocol address) is the direction.
  const ask = r.protocol === 'ARP' ? ARP_ASK.exec(r.info) : null;
  if (ask) return { direction: `${ask[2]} asks`, flags: 'who-has', seq: null, ack: null, len: null, length: r.length };
  const answer = r.protocol === 'ARP' ? ARP_ANSWER.exec(r.info) : null;
  if (answer) return { direction: `${answer[1]} answers`, flags: 'is-at', seq: null, ack: null, len: null, length: r.length };
  return { direction, flags: `${r.protocol} ${r.info}`, seq: null, ack: null, len: null, length: r.length };
}

/** The fields in which two segments of the same direction and flags differ. */
export function differingFields(a: Segment, b: Segment): AlignField[] {
  return FIELDS.filter((f) => a[f] !== b[f]);
}

/** What pairing two rows is worth: null when they cannot pair (another direction or other
 *  flags), else 1 + 2 per agreeing field, so a matched pair (9) outweighs any differing one. */
function pairScore(a: Segment, b: Segment): number | null {
  if (a.direction !== b.direction || a.flags !== b.flags) return null;
  return 1 + 2 * (FIELDS.length - differingFields(a, b).length);
}

/** The seed's rows aligned with ours (the rule above). */
export function alignRows(seed: readonly AlignRow[], ours: readonly AlignRow[]): Alignment {
  const s = seed.map((r) => ({ ...r, ...segmentOf(r) }));
  const o = ours.map((r) => ({ ...r, ...segmentOf(r) }));
  // best[i][j]: the most the rows from seed[i] and ours[j] on can be worth.
  const best = Array.from({ length: s.length + 1 }, () => new Array<number>(o.length + 1).fill(0));
  for (let i = s.length - 1; i >= 0; i--)
    for (let j = o.length - 1; j >= 0; j--) {
      const p = pairScore(s[i]!, o[j]!);
      best[i]![j] = Math.max(p === null ? -1 : p + best[i + 1]![j + 1]!, best[i + 1]![j]!, best[i]![j + 1]!);
    }
  const rows: AlignedRow[] = [];
  let i = 0;
  let j = 0;
  while (i < s.length || j < o.length) {
    const p = i < s.length && j < o.length ? pairScore(s[i]!, o[j]!) : null;
    if (p !== null && p + best[i + 1]![j + 1]! === best[i]![j]) {
      const differs = differingFields(s[i]!, o[j]!);
      rows.push({ mark: differs.length === 0 ? 'matched' : 'differing', seed: s[i++]!, ours: o[j++]!, differs });
    } else if (i < s.length && (j === o.length || best[i + 1]![j] === best[i]![j])) {
      rows.push({ mark: 'missing', seed: s[i++]!, ours: null, differs: [] });
    } else {
      rows.push({ mark: 'extra', seed: null, ours: o[j++]!, differs: [] });
    }
  }
  const count = (m: AlignMark): number => rows.filter((r) => r.mark === m).length;
  return { rows, matched: count('matched'), differing: count('differing'), missing: count('missing'), extra: count('extra'), seedRows: s.length };
}

/** The sequence of TCP segments a list shows: direction, flags and Len, in order. */
function tcpSequence(rows: readonly AlignRow[]): string[] {
  return rows
    .filter((r) => r.protocol === 'TCP')
    .map(segmentOf)
    .map((g) => `${g.direction} ${g.flags} ${g.len}`);
}

/** Whether a capture has the seed's sequence of TCP segments exactly (direction, flags and
 *  Len in order; Seq, Ack, Length and time not asked). */
export function sameSequence(seed: readonly AlignRow[], ours: readonly AlignRow[]): boolean {
  const a = tcpSequence(seed);
  const b = tcpSequence(ours);
  return a.length === b.length && a.every((k, i) => k === b[i]);
}
