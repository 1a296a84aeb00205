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

  it("a pair, one value per end, is a control per element: the NFC modules' buffers", () => {
    const nfc = fieldsOf('nfcLink', ['name', 'type', 'a', 'b', 'faults']);
    const pair = nfc.filter((f) => f.key === 'module_buffer');
    expect(pair).toEqual([
      expect.objectContaining({ index: 0, kind: 'integer', min: 0, max: 2048, default: 0, title: 'Module buffer (bytes), end a' }),
      expect.objectContaining({ index: 1, kind: 'integer', min: 0, max: 2048, default: 2048, title: 'Module buffer (bytes), end b' }),
    ]);
    expect(nfc.find((f) => f.key === 'channel')).toMatchObject({ kind: 'enum', choices: ['slot', 'packet', 'a_first'], default: 'slot' });
  });

  it("a bridge's channel sensing is a checkbox", () => {
    expect(fieldsOf('bridge', ['name'])).toEqual([expect.objectContaining({ key: 'channel_sensing', kind: 'boolean', default: false })]);
  });

  it('offers seed and duration', () => {
    expect(topFields().map((f) => f.key)).toEqual(['seed', 'duration_ms']);
  });
});
