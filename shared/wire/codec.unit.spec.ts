import { describe, expect, it } from 'vitest';
import { Hello, PROTOCOL_VERSION, Reply, WireError, decode, decodeFrame, encode, encodeFrame, fail, ok, subjects } from './index.js';

describe('wire protocol', () => {
  it('builds every subject from one place and refuses ids that would change a subject\'s shape', () => {
    expect(subjects.rpc('host-1', 'dev_2')).toBe('df.agent.host-1.device.dev_2.rpc');
    expect(subjects.hello('h')).toBe('df.agent.h.hello');
    for (const bad of ['a.b', '*', '>', 'with space', '']) expect(() => subjects.heartbeat(bad)).toThrow(TypeError);
  });

  it('refuses a message that does not match its schema or protocol version', () => {
    const hello = { protocol: PROTOCOL_VERSION as typeof PROTOCOL_VERSION, hostId: 'h', nodeName: 'n', hubId: 'u', token: 'pool-token', agentVersion: '1', startedAt: 'x', devices: [], states: [] };
    expect(decode(Hello, encode(Hello, hello))).toEqual(hello);
    expect(() => decode(Hello, new TextEncoder().encode(JSON.stringify({ ...hello, protocol: 99 })))).toThrow(WireError);
    expect(() => decode(Hello, new TextEncoder().encode('not json'))).toThrow(WireError);
    expect(() => encode(Hello, { ...hello, hostId: 'a.b' })).toThrow();
  });

  it('answers ok and fail as replies', () => {
    expect(decode(Reply, ok({ known: true }))).toEqual({ type: 'ok', data: { known: true } });
    expect(decode(Reply, fail('DEVICE_BUSY', 'in use'))).toEqual({ type: 'fail', code: 'DEVICE_BUSY', message: 'in use' });
  });

  it('carries a frame\'s JPEG untouched, its facts in headers', () => {
    const jpeg = new Uint8Array([0xff, 0xd8, 1, 2, 3]);
    const { data, headers } = encodeFrame({ sessionId: 's', seq: 7, capturedAt: 1234, width: 10, height: 20, jpeg });
    expect(data).toBe(jpeg);
    expect(decodeFrame(data, headers)).toEqual({ sessionId: 's', seq: 7, capturedAt: 1234, width: 10, height: 20, jpeg });
    expect(() => decodeFrame(data, {})).toThrow(WireError);
  });
});
