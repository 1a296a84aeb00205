// Bursts on the ladder: consecutive frames going the same way along the same hop, so close
// together that their labels would share a row (a bulk transfer's segments, its ACKs). Such
// a run that cannot label each of its frames is folded into one group: a bracket beside the
// run and one label saying how many frames it holds, how many of them were resent or lost,
// and which range of Seq/Ack they cover. Clicking the group zooms into it.
import type { TextBox } from './ladder_text.ts';

export interface GroupMark {
  /** the first send and the last arrival of its frames (µs): what a click zooms to */
  t0: number;
  t1: number;
  count: number;
  /** how many of its frames are retransmissions, how many were dropped */
  resent: number;
  lost: number;
  ids: number[];
  /** the bracket: a vertical line at x from y0 to y1, its ends pointing `dir` (to the hop) */
  x: number;
  y0: number;
  y1: number;
  dir: 1 | -1;
  label: TextBox | null;
}

/** What a run is made of, for any kind of mark: the hop it goes along (a lifeline and a
 *  direction) and the y its label would sit at. */
export interface RunMember {
  hop: string;
  y: number;
}

/** The runs: per hop, members in order of y, consecutive ones closer than `rowPx` chained.
 *  Runs come out in order of their first member's y (time order). */
export function findRuns<T extends RunMember>(members: readonly T[], rowPx: number): T[][] {
  const byHop = new Map<string, T[]>();
  for (const m of members) {
    const list = byHop.get(m.hop);
    if (list) list.push(m);
    else byHop.set(m.hop, [m]);
  }
  const runs: T[][] = [];
  for (const list of byHop.values()) {
    list.sort((a, b) => a.y - b.y);
    let run: T[] = [];
    for (const m of list) {
      if (run.length && m.y - run[run.length - 1]!.y >= rowPx) {
        runs.push(run);
        run = [];
      }
      run.push(m);
    }
    if (run.length) runs.push(run);
  }
  return runs.sort((a, b) => a[0]!.y - b[0]!.y);
}

const KEY = /^\w+$/;

/** The values a field took: the same one, or a range (numbers: least…most; else first…last). */
class Values {
  private first = '';
  private last = '';
  private min = Infinity;
  private max = -Infinity;
  private numeric = true;
  private differ = false;
  private count = 0;

  add(v: string): void {
    if (this.count++ === 0) this.first = v;
    this.last = v;
    const n = v === '' ? NaN : Number(v);
    if (Number.isFinite(n)) {
      this.min = Math.min(this.min, n);
      this.max = Math.max(this.max, n);
    } else this.numeric = false;
    if (v !== this.first) this.differ = true;
  }

  toString(): string {
    if (!this.differ) return this.first;
    return this.numeric ? `${this.min}…${this.max}` : `${this.first}…${this.last}`;
  }
}

/** Where a label's fields begin: the index of its first word "key=value" (words.length
 *  when it has none). */
function firstField(words: readonly string[]): number {
  let k = 0;
  for (; k < words.length; k++) {
    const eq = words[k]!.indexOf('=');
    if (eq > 0 && KEY.test(words[k]!.slice(0, eq))) break;
  }
  return k;
}

/** One line for many labels of the form "[ACK] Seq=1 Ack=1449 Len=0": the words they
 *  start with, and for each field its value or its range ("[ACK] Seq=1 Ack=1449…52129
 *  Len=0"). Labels with no field at all (an ARP exchange before a TCP burst on an Ethernet
 *  link) are left out when others have fields: the line describes the burst, not the two
 *  frames before it. Runs can hold thousands of frames: no regular expression per word. */
export function summarise(labels: readonly string[]): string {
  const split = labels.filter((l) => l !== '').map((l) => l.split(' '));
  const withFields = split.filter((words) => firstField(words) < words.length);
  const prefix = new Values();
  const fields = new Map<string, Values>();
  for (const words of withFields.length ? withFields : split) {
    let k = firstField(words);
    prefix.add(words.slice(0, k).join(' '));
    const first = fields.size === 0;
    for (; k < words.length; k++) {
      const w = words[k]!;
      const eq = w.indexOf('=');
      if (eq <= 0) continue;
      const key = w.slice(0, eq);
      let v = fields.get(key);
      // the fields are those of the first label
      if (!v && first) fields.set(key, (v = new Values()));
      v?.add(w.slice(eq + 1));
    }
  }
  return [String(prefix), ...[...fields].map(([key, v]) => `${key}=${v}`)].filter((s) => s !== '').join(' ');
}

/** The group's label, whole and as its head alone ("×37 (2 resent, 1 lost)"): the head
 *  comes first so that it survives cutting. */
export function groupWording(count: number, resent: number, lost: number, labels: readonly string[]): { head: string; whole: string } {
  const story = [resent ? `${resent} resent` : '', lost ? `${lost} lost` : ''].filter((s) => s !== '').join(', ');
  const head = `×${count}${story ? ` (${story})` : ''}`;
  const summary = summarise(labels);
  return { head, whole: summary ? `${head} ${summary}` : head };
}
