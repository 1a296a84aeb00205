// The summary `stackscope run` prints: duration, frames per link, drops by reason,
// retransmissions by cause, what each application did (with goodput) and, for the apps that
// check the bytes they receive, how many they checked and how many differed; the trace hash.
import type { AppCheck } from '../web/src/core/engine/engine.ts';
import type { StreamedRun } from '../web/src/core/engine/run.ts';
import { nodeName } from '../web/src/core/run/lifelines.ts';
import type { Scenario } from '../web/src/core/scenarios/types.ts';
import type { RunTally } from './run_tally.ts';

/** A run as the summary needs it: how it ended, and its records counted. */
export type RunSummary = Pick<StreamedRun, 'world' | 'virtualUs' | 'hash' | 'checks'> & { tally: RunTally };

function s(us: number): string {
  return (us / 1e6).toFixed(3);
}

export function summaryLines(scenario: Scenario, r: RunSummary, wallMs: number): string[] {
  const w = r.world;
  const t = r.tally;
  const out = [`${scenario.name}: ${scenario.title}`, `seed ${w.seed}; ${s(r.virtualUs)} s of virtual time in ${(wallMs / 1000).toFixed(3)} s`];
  const drops = new Map<string, number>();
  w.links.forEach((link, i) => {
    const frames = t.frames[i]!;
    const ab = t.aToB[i]!;
    let lost = 0;
    for (const [reason, n] of t.lostOn(i)) {
      drops.set(`${link.name}: ${w.drop_reason_texts[reason] ?? reason}`, n);
      lost += n;
    }
    out.push(`link ${link.name} (${link.description}): ${frames} frames ` + `(${ab} a->b, ${frames - ab} b->a), ${lost} dropped on the link`);
  });
  const hostName = (key: string): [string, number] => {
    const [host, n] = key.split(',').map(Number) as [number, number];
    return [nodeName(w, host), n]; // a host, or a bridge (its ARP's decisions)
  };
  for (const [key, n] of t.hostDrops) {
    const [host, reason] = hostName(key);
    const k = `${host}: ${w.drop_reason_texts[reason] ?? reason}`;
    drops.set(k, (drops.get(k) ?? 0) + n);
  }
  const retx = new Map<string, number>();
  for (const [key, n] of t.retransmissions) {
    const [host, cause] = hostName(key);
    const k = `${host}: ${w.retx_causes[cause] ?? cause}`;
    retx.set(k, (retx.get(k) ?? 0) + n);
  }
  out.push(listLine('drops', drops), listLine('retransmissions', retx));
  for (const app of scenario.apps ?? []) {
    const i = (scenario.apps ?? []).indexOf(app);
    const lines = t.apps.filter((a) => a.app === i);
    const report = lines.find((a) => a.kind === 1);
    const conns = app.type === 'tcp_echo_client' && (app.connections ?? 1) > 1 ? `, ${app.connections} connections` : '';
    const to = 'to' in app ? ` -> ${app.to}${conns}` : '';
    let what = 'no report';
    if (report) {
      const rate = report.elapsedUs > 0 ? `, goodput ${((report.bytes * 8) / report.elapsedUs).toFixed(3)} Mbit/s` : '';
      const time = report.elapsedUs > 0 ? ` in ${s(report.elapsedUs)} s` : '';
      const status = report.error !== 0 ? `error ${report.error}` : report.done ? 'done' : 'not finished';
      what = app.type === 'ping' ? `${status}: ${report.bytes} replies` : `${status}: ${report.bytes} bytes${time}${rate}`;
    }
    out.push(`app ${i} ${app.type} on ${app.host}${to}: ${what}`);
    const check = r.checks.get(i);
    if (check) out.push(`    content: ${contentText(check)}`);
    // Lines and reports (the tally keeps no received bytes of a tcp_client: the report counts them).
    for (const l of lines)
      if (l.text)
        out.push(
          ...l.text
            .trimEnd()
            .split('\n')
            .map((x) => `    ${x}`),
        );
  }
  out.push(`trace hash ${r.hash}`);
  return out;
}

function listLine(what: string, m: Map<string, number>): string {
  if (m.size === 0) return `${what}: none`;
  return `${what}: ` + [...m.entries()].map(([k, n]) => `${k} x${n}`).join('; ');
}

function contentText(c: AppCheck): string {
  if (c.checked === 0) return 'no bytes came to check';
  return `${c.checked} bytes checked, ${c.mismatched === 0 ? 'all as expected' : `${c.mismatched} differ from what was expected`}`;
}

/** One line per app whose received bytes differ from those it expected, naming it and the
 *  count; none when every check passed. */
export function contentMismatches(scenario: Scenario, r: Pick<RunSummary, 'checks'>): string[] {
  return (scenario.apps ?? []).flatMap((app, i) => {
    const check = r.checks.get(i);
    if (!check || check.mismatched === 0) return [];
    return [`app ${i} ${app.type} on ${app.host}: ${check.mismatched} of the ${check.checked} bytes it checked differ from what was expected`];
  });
}
