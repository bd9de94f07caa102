import { describe, expect, it } from 'vitest';
import { byteRange } from '#shared/blob/index.js';
import { chaptersVtt, entryTitle } from './video-chapters.js';

describe('video chapters and byte ranges', () => {
  it('makes one WebVTT cue per timeline entry inside the video, each until the next, the last until the end', () => {
    const vtt = chaptersVtt(
      [
        { kind: 'control', detail: { action: 'tap' }, at: '2026-01-01T00:00:02.500Z' },
        { kind: 'note', detail: { text: 'before' }, at: '2025-12-31T23:59:59.000Z' },
        { kind: 'test', detail: { name: 'logs in --> home' }, at: '2026-01-01T00:01:01.250Z' },
        { kind: 'note', detail: { text: 'after the end' }, at: '2026-01-01T00:05:00.000Z' },
      ],
      '2026-01-01T00:00:00.000Z',
      90_000,
    );
    expect(vtt).toBe('WEBVTT\n\n1\n00:00:02.500 --> 00:01:01.250\ncontrol: tap\n\n2\n00:01:01.250 --> 00:01:30.000\ntest: logs in -> home\n');
  });

  it('starts entries of one millisecond a millisecond apart, so no two chapters overlap and each lasts', () => {
    const at = '2026-01-01T00:00:01.263Z';
    const vtt = chaptersVtt(
      [
        { kind: 'test', detail: { name: 'started' }, at },
        { kind: 'control', detail: { action: 'navigate' }, at },
        { kind: 'test', detail: { name: 'failed' }, at },
      ],
      '2026-01-01T00:00:00.000Z',
      2_000,
    );
    expect(vtt).toBe(
      'WEBVTT\n\n1\n00:00:01.263 --> 00:00:01.264\ntest: started\n\n2\n00:00:01.264 --> 00:00:01.265\ncontrol: navigate\n\n3\n00:00:01.265 --> 00:00:02.000\ntest: failed\n',
    );
  });

  it('names an entry by its kind alone when its detail says nothing readable', () => {
    expect(entryTitle({ kind: 'lifecycle', detail: { n: 1 }, at: '' })).toBe('lifecycle');
  });

  it('reads a Range header as browsers send it, and refuses what the file cannot hold', () => {
    expect(byteRange(undefined, 100)).toBeNull();
    expect(byteRange('bytes=0-', 100)).toEqual({ start: 0, end: 99 });
    expect(byteRange('bytes=10-19', 100)).toEqual({ start: 10, end: 19 });
    expect(byteRange('bytes=90-200', 100)).toEqual({ start: 90, end: 99 });
    expect(byteRange('bytes=-10', 100)).toEqual({ start: 90, end: 99 });
    expect(byteRange('bytes=100-', 100)).toBe('unsatisfiable');
    expect(byteRange('bytes=5-2', 100)).toBe('unsatisfiable');
    expect(byteRange('bytes=0-1,5-6', 100)).toBeNull();
    expect(byteRange('items=0-1', 100)).toBeNull();
  });
});
