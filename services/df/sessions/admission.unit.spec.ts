import { describe, expect, it } from 'vitest';
import { AppError } from '#shared/errors.js';
import type { Caller } from '../http.js';
import { admit, type AdmissionCheck } from './admission.js';

const caller = { userId: 7, companyId: 1, workspaceId: 2 } as Caller;
const request = { caller, deviceId: 'd1', sessionId: 's1' };
const device = { id: 'd1', name: 'Pixel', alias: null };

/** A list of checks that writes what happens to it in `log`. */
function checks(log: string[], refuseAt: string | null): AdmissionCheck[] {
  const step = (name: string, admitted: object | null): AdmissionCheck => ({
    name,
    admit: async () => {
      log.push(`admit ${name}`);
      if (name === refuseAt) throw new AppError('QUOTA_EXCEEDED', `${name} refused`);
      return admitted ? { ...admitted, undo: async () => void log.push(`undo ${name}`) } : null;
    },
  });
  return [step('device', { device }), step('booking', { booking: 'r1' }), step('nothing', null), step('quota', {}), step('health', {})];
}

describe('session admission', () => {
  it('runs every check in its order and answers the device, the booking, and one release that undoes the last first', async () => {
    const log: string[] = [];
    const admission = await admit(checks(log, null), request);
    expect(admission).toMatchObject({ device, booking: 'r1' });
    expect(log).toEqual(['admit device', 'admit booking', 'admit nothing', 'admit quota', 'admit health']);
    await admission.release();
    await admission.release();
    expect(log.slice(5)).toEqual(['undo health', 'undo quota', 'undo booking', 'undo device']);
  });

  it('stops at the first refusal, answers it, and gives back what the checks before it took', async () => {
    const log: string[] = [];
    await expect(admit(checks(log, 'quota'), request)).rejects.toMatchObject({ code: 'QUOTA_EXCEEDED', message: 'quota refused' });
    expect(log).toEqual(['admit device', 'admit booking', 'admit nothing', 'admit quota', 'undo booking', 'undo device']);
  });

  it('undoes every step even when one undo fails, then answers that failure', async () => {
    const log: string[] = [];
    const list = checks(log, null);
    list[1] = { name: 'booking', admit: async () => ({ booking: 'r1', undo: async () => Promise.reject(new Error('bus down')) }) };
    const admission = await admit(list, request);
    await expect(admission.release()).rejects.toThrow('bus down');
    expect(log.filter((l) => l.startsWith('undo'))).toEqual(['undo health', 'undo quota', 'undo device']);
  });
});
