import { describe, expect, it } from 'vitest';
import { addLine, addReceived, markClass, type Transcript } from './transcript.ts';

const empty: Transcript = { lines: [], open: false };

describe('the console transcript', () => {
  it('marks each received line, however the segments cut them', () => {
    let t = addLine(empty, '> hello world');
    t = addReceived(t, 'hel');
    expect(t).toEqual({ lines: ['> hello world', '< hel'], open: true });
    t = addReceived(t, 'lo world\r\nsecond\nthi');
    expect(t).toEqual({ lines: ['> hello world', '< hello world', '< second', '< thi'], open: true });
    t = addReceived(t, 'rd\n');
    expect(t).toEqual({ lines: ['> hello world', '< hello world', '< second', '< third'], open: false });
  });

  it('an empty line received is a line; a line sent in between closes an open one', () => {
    let t = addReceived(empty, '\n');
    expect(t.lines).toEqual(['< ']);
    t = addReceived(t, 'part');
    t = addLine(t, '> next');
    t = addReceived(t, 'more\n');
    expect(t).toEqual({ lines: ['< ', '< part', '> next', '< more'], open: false });
  });

  it('the colour follows the mark', () => {
    expect(['> a', '< b', '* c', 'plain'].map(markClass)).toEqual(['line-sent', 'line-received', 'line-info', null]);
  });
});
