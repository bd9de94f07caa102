import { describe, expect, it } from 'vitest';
import { BASELINE_SETTINGS, CLEAR_CLIPBOARD, clearClipboard, DeviceBaseline, differences, parseBaseline, READ_BASELINE, READ_CLIPBOARD, restoreBaseline, restoreCommand } from './baseline.js';

const lines = (values: Record<string, string>) => BASELINE_SETTINGS.map(([n, k]) => values[`${n}/${k}`] ?? 'null').join('\n') + '\n';

describe('the clean-device baseline', () => {
  it('reads every setting in one shell, a missing one as unset', () => {
    expect(READ_BASELINE.split('; ')).toHaveLength(BASELINE_SETTINGS.length);
    const b = parseBaseline(lines({ 'system/font_scale': '1.0', 'global/airplane_mode_on': '0' }).replace(/\n/g, '\r\n'));
    expect(b['system/font_scale']).toBe('1.0');
    expect(b['global/airplane_mode_on']).toBe('0');
    expect(b['global/time_zone']).toBeNull();
  });

  it('puts back what changed and deletes what the device did not have, quoting values', () => {
    const base = parseBaseline(lines({ 'system/font_scale': '1.0', 'system/system_locales': "en-US" }));
    const now = parseBaseline(lines({ 'system/font_scale': '1.3', 'system/system_locales': 'en-US', 'global/time_zone': 'Europe/Paris' }));
    const changed = differences(base, now);
    expect(changed.sort()).toEqual(['global/time_zone', 'system/font_scale']);
    expect(restoreCommand(base, changed)).toBe("settings delete global time_zone; settings put system font_scale '1.0'");
  });

  it('keeps a baseline it is given instead of taking one, reading only a setting it does not name', async () => {
    const sent: string[] = [];
    const device = lines({ 'system/font_scale': '1.0', 'global/time_zone': 'UTC' });
    const sh = async (command: string) => (sent.push(command), command === READ_BASELINE ? device : '');
    const kept = new DeviceBaseline(sh, () => undefined);
    const given = parseBaseline(lines({ 'system/font_scale': '1.25', 'global/time_zone': 'Europe/Berlin' }));
    expect(await kept.adopt(given)).toEqual(given);
    await kept.takeOnce();
    expect(sent).toEqual([]);
    expect(kept.settings?.['system/font_scale']).toBe('1.25');
    const older = new DeviceBaseline(sh, () => undefined);
    const { 'global/time_zone': _zone, ...withoutZone } = given;
    const adopted = await older.adopt(withoutZone);
    expect(adopted['global/time_zone']).toBe('UTC');
    expect(adopted['system/font_scale']).toBe('1.25');
    expect(sent).toEqual([READ_BASELINE]);
  });

  it('fails naming each setting the device kept', async () => {
    const base = parseBaseline(lines({ 'system/font_scale': '1.0' }));
    const stuck = lines({ 'system/font_scale': '2.0' });
    const sent: string[] = [];
    const sh = async (command: string) => (sent.push(command), command === READ_BASELINE ? stuck : '');
    await expect(restoreBaseline(sh, base)).rejects.toThrow('system/font_scale (baseline 1.0)');
    expect(sent).toEqual([READ_BASELINE, "settings put system font_scale '1.0'", READ_BASELINE]);
  });

  it('sends nothing but one read when nothing changed', async () => {
    const base = parseBaseline(lines({ 'system/font_scale': '1.0' }));
    const sent: string[] = [];
    expect(await restoreBaseline(async (c) => (sent.push(c), lines({ 'system/font_scale': '1.0' })), base)).toEqual([]);
    expect(sent).toEqual([READ_BASELINE]);
  });

  it('empties the clipboard and reads it again to prove it; fails when it still holds text; leaves a device without the shell command alone', async () => {
    const sent: string[] = [];
    let clip = 'one-time code 123456';
    const sh = async (c: string) => (sent.push(c), c === READ_CLIPBOARD ? clip : c === CLEAR_CLIPBOARD ? ((clip = ''), '') : '');
    expect(await clearClipboard(sh)).toBe(true);
    expect(sent).toEqual([READ_CLIPBOARD, CLEAR_CLIPBOARD, READ_CLIPBOARD]);
    const kept = async (c: string) => (c === READ_CLIPBOARD ? 'still here\n' : '');
    await expect(clearClipboard(kept)).rejects.toThrow('clipboard not cleared: it still holds 10 characters');
    expect(await clearClipboard(async () => "cmd: Can't find service: clipboard\n")).toBe(false);
    sent.length = 0;
    clip = '';
    expect(await clearClipboard(sh)).toBe(true);
    expect(sent).toEqual([READ_CLIPBOARD]);
  });
});
