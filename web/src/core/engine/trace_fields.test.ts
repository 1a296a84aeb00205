// trace_fields.ts is generated from wasm/stack/trace.h: it must be what the generator
// writes today, and traceField() must read the slot the header names.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { TRACE_FIELDS_FILE, TRACE_HEADER, traceFieldsSource } from './trace_fields_source.ts';
import { runScenario } from './run.ts';
import { traceField } from './trace_types.ts';

describe('trace fields', () => {
  it('trace_fields.ts is up to date with trace.h (run npx tsx scripts/gen-trace-fields.ts)', () => {
    expect(readFileSync(TRACE_FIELDS_FILE, 'utf8')).toBe(traceFieldsSource(readFileSync(TRACE_HEADER, 'utf8')));
  });

  it('names read the values the stack wrote: a tcp.state event goes from the old state to the new', async () => {
    const r = await runScenario(
      JSON.stringify({
        version: 1,
        name: 't',
        title: 't',
        duration_ms: 3000,
        hosts: [
          { name: 'a', addr: '10.0.7.1/24' },
          { name: 'b', addr: '10.0.7.2/24' },
        ],
        links: [{ name: 's', type: 'serial', a: 'a', b: 'b', baud: 57600 }],
        apps: [
          { type: 'tcp_echo_server', host: 'b', port: 7 },
          { type: 'tcp_echo_client', host: 'a', to: 'b', port: 7, bytes: 10 },
        ],
      }),
    );
    const kind = r.world.trace_kinds.indexOf('tcp.state');
    const states = r.trace.events
      .filter((e) => e.kind === kind && e.host === 0)
      .map((e) => [r.world.tcp_states[traceField(e, 'tcp.state', 'old_state')], r.world.tcp_states[traceField(e, 'tcp.state', 'new_state')]]);
    expect(states[0]).toEqual(['CLOSED', 'SYN_SENT']);
    expect(states[1]).toEqual(['SYN_SENT', 'ESTABLISHED']);
  });
});
