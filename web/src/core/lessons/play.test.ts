// The engine's contracts beyond the shipped lessons: a parameter that matters changes the
// captions' numbers and the answers; an anchor the run lacks, a value an anchor has not, an
// answer no choice gives, each names the lesson's field.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LessonFileError, parseLesson, runLesson, type Lesson } from './index.ts';

const DIR = fileURLToPath(new URL('./shipped/', import.meta.url));
const SCENARIOS = fileURLToPath(new URL('../scenarios/shipped/', import.meta.url));
const none = () => undefined;
const shipped = (name: string): unknown => JSON.parse(readFileSync(`${SCENARIOS}${name}.json`, 'utf8'));

function lesson(file: string): Lesson {
  const r = parseLesson(readFileSync(DIR + file, 'utf8'));
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.lesson;
}

async function playError(l: Lesson): Promise<LessonFileError> {
  const err = await runLesson(l, (name) => (name === 'no-such' ? undefined : shipped(name))).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(LessonFileError);
  return err as LessonFileError;
}

describe('a changed parameter changes the words', () => {
  it("exponential-backoff with a 500 ms RTO floor: the captions quote the run's new timers", async () => {
    const base = lesson('02-exponential-backoff.json');
    const before = await runLesson(base, none);
    const after = await runLesson({ ...base, set: ['hosts.client.stack.tcp_rto_min_ms=500'] }, none);
    expect(before.steps[1]!.caption).toContain('The timer of 1.000 s expires');
    expect(after.steps[1]!.caption).toContain('The timer of 500.0 ms expires');
    expect(after.steps[2]!.caption).toContain('The second timeout: 1.000 s');
    // the answers follow the run, and so does the right choice
    expect(before.steps[1]!.question!.answer).toBeCloseTo(2, 9);
    expect(after.steps[1]!.question!.answer).toBeCloseTo(1, 9);
    expect(after.steps[1]!.question!.correct).not.toBe(before.steps[1]!.question!.correct);
  });

  it('retransmission-timer with a longer link delay: new times in the captions', async () => {
    const base = lesson('01-retransmission-timer.json');
    const slow = await runLesson({ ...base, set: ['links.eth.delay_us=50000'] }, none);
    expect(slow.steps[0]!.caption).toContain('RTO=1.000 s');
    // A round trip of 100 ms; the SYN's sample is 200 ms, as it waited one round trip for
    // ARP: srtt = 7/8 x 200 + 1/8 x 100 (RFC 6298 2.3)
    expect(slow.steps[2]!.caption).toMatch(/srtt=18\d\.\d ms/);
  });

  it('a parameter that makes every choice wrong is reported on the choices, with the value', async () => {
    const base = lesson('01-retransmission-timer.json');
    const err = await playError({ ...base, set: ['hosts.client.stack.tcp_rto_min_ms=1500'] });
    expect(err.errors[0]!.path).toBe('steps[2].question.choices');
    expect(err.errors[0]!.message).toBe("the run's answer is 1.500 s, which none of the choices is");
  });
});

describe('what the run cannot give names the field', () => {
  it('an anchor the run lacks', async () => {
    const base = lesson('01-retransmission-timer.json');
    const steps = structuredClone(base.steps);
    steps[3]!.at = { event: { kind: 'tcp.rto.expire', host: 'client', nth: 2 } };
    const err = await playError({ ...base, steps });
    expect(err.errors[0]).toEqual({ path: 'steps[3].at.event', message: 'not found: the run has 1 such event, the lesson wants number 2' });
  });

  it('a name the run does not have', async () => {
    const base = lesson('01-retransmission-timer.json');
    const steps = structuredClone(base.steps);
    steps[0]!.at = { event: { kind: 'tcp.rto.expired' } };
    expect((await playError({ ...base, steps })).errors[0]!.path).toBe('steps[0].at.event.kind');
    steps[0]!.at = { frame: { from: 'nobody' } };
    const err = await playError({ ...base, steps });
    expect(err.errors[0]!.path).toBe('steps[0].at.frame.from');
    expect(err.errors[0]!.message).toBe('no host or bridge "nobody" in this run (client, server)');
  });

  it('a caption value the anchor has not', async () => {
    const base = lesson('01-retransmission-timer.json');
    const steps = structuredClone(base.steps);
    steps[3]!.caption = 'Seq={seq}';
    const err = await playError({ ...base, steps });
    expect(err.errors[0]!.path).toBe('steps[3].caption');
    expect(err.errors[0]!.message).toMatch(/^\{seq\} has no value at this anchor/);
  });

  it("the lesson's scenario is checked as a scenario, its fields named inside the lesson", async () => {
    const base = lesson('01-retransmission-timer.json');
    const err = await playError({ ...base, set: ['links.eth.rate_bps=1'] });
    expect(err.errors[0]!.path).toBe('scenario.links[0].rate_bps');
  });
});

describe('a lesson on a shipped scenario', () => {
  // "the first frame the appliance's stack retransmitted", and its copy the PTx forwarded
  const nfc: Lesson = {
    version: 1,
    name: 'nfc-retransmission',
    title: 'The appliance resends',
    scenario: 'nfc-bridge-1080',
    steps: [
      {
        id: 'resend',
        at: { frame: { link: 'nfc', from: 'appliance', retransmitted: true } },
        caption: 'The appliance resends Seq={seq} ({cause}) when RTO={expired} runs out; its timer now runs {timer}.',
        question: {
          prompt: 'Whose stack sent the copy the PTx forwards to the Ethernet?',
          answer: 'host',
          reveal: { frame: { link: 'eth', from: 'ptx', after: 'resend' } },
          choices: [
            { text: 'the appliance', value: 'appliance' },
            { text: 'the PTx', value: 'ptx' },
          ],
        },
      },
    ],
  };

  it("plays it by name; a bridge's copy is the sending host's, the cause chain gives the RTO that ran out", async () => {
    const p = await runLesson(nfc, shipped);
    const r = p.result;
    const appliance = r.world.hosts.findIndex((h) => h.name === 'appliance');
    const nfcLink = r.world.links.findIndex((l) => l.name === 'nfc');
    const resent = r.trace.frames.find((f) => f.link === nfcLink && f.node === appliance && f.retx !== 255)!;
    const retx = r.trace.events.find((e) => e.seq === resent.cause)!;
    const expire = r.trace.events.find((e) => e.seq === retx.cause)!;
    expect(r.world.trace_kinds[expire.kind]).toBe('tcp.rto.expire');
    expect(p.steps[0]!.caption).toContain(`when RTO=${(expire.a / 1e6).toFixed(3)} s runs out`);
    expect(p.steps[0]!.question!.answer).toBe('appliance');
  });

  it('a name that is not a shipped scenario is an error on `scenario`', async () => {
    const err = await playError({ ...nfc, scenario: 'no-such' });
    expect(err.errors[0]).toEqual({ path: 'scenario', message: 'names "no-such", which is not a shipped scenario' });
  });
});
