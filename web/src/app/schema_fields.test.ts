import { describe, expect, it } from 'vitest';
import { defForType, fieldsOf, topFields } from './schema_fields.ts';

describe('parameter fields from the schema', () => {
  it('reads every stack field with its kind, range and default', () => {
    const f = fieldsOf('stack');
    const rtoMin = f.find((x) => x.key === 'tcp_rto_min_ms')!;
    expect(rtoMin).toMatchObject({ kind: 'integer', min: 1, max: 600000, default: 1000 });
    expect(f.find((x) => x.key === 'tcp_rto')).toMatchObject({ kind: 'enum', choices: ['rfc6298', 'vj_ticks', 'fixed', 'nfc_alg1'] });
    expect(f.find((x) => x.key === 'tcp_nagle')).toMatchObject({ kind: 'boolean', default: true });
    expect(f.length).toBeGreaterThanOrEqual(25);
  });

  it('finds the variant of each link and app type', () => {
    expect(defForType('link', 'serial')).toBe('serialLink');
    expect(defForType('app', 'tcp_echo_client')).toBe('tcpEchoClientApp');
    const serial = fieldsOf('serialLink', ['name', 'type', 'a', 'b', 'faults']);
    expect(serial.map((f) => f.key)).toEqual(expect.arrayContaining(['baud', 'framing', 'qlen', 'mtu', 'latency_us']));
    expect(serial.find((f) => f.key === 'baud')).toMatchObject({ min: 50, max: 4000000 });
    expect(fieldsOf(defForType('app', 'ping')).map((f) => f.key)).toEqual(expect.arrayContaining(['count', 'size', 'interval_ms']));
  });

  it('offers seed and duration', () => {
    expect(topFields().map((f) => f.key)).toEqual(['seed', 'duration_ms']);
  });
});
