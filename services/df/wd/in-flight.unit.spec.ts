import { describe, expect, it } from 'vitest';
import { CommandsInFlight } from './in-flight.js';

/** Which sessions the hub vouches for at a watchdog tick: a command under way, or one settled since the last tick. */
describe('CommandsInFlight', () => {
  it('vouches for a session while its command is in flight, and once more after it settles', async () => {
    const commands = new CommandsInFlight();
    let answer = (_: string) => undefined as void;
    const sent = commands.around('s-1', () => new Promise<string>((resolve) => (answer = resolve)));
    expect(commands.live()).toEqual(['s-1']);
    expect(commands.live()).toEqual(['s-1']);
    answer('done');
    expect(await sent).toBe('done');
    // Settled since the last tick: still a live client at this one, whatever the read model shows yet.
    expect(commands.live()).toEqual(['s-1']);
    // Nothing since: no longer vouched for.
    expect(commands.live()).toEqual([]);
  });

  it('counts a command that failed as one the client sent', async () => {
    const commands = new CommandsInFlight();
    await expect(commands.around('s-1', () => Promise.reject(new Error('unreachable')))).rejects.toThrow('unreachable');
    expect(commands.live()).toEqual(['s-1']);
    expect(commands.live()).toEqual([]);
  });

  it('keeps a session in flight until its last concurrent command settles, and forgets an ended one', async () => {
    const commands = new CommandsInFlight();
    const answers: (() => void)[] = [];
    const first = commands.around('s-1', () => new Promise<void>((resolve) => answers.push(resolve)));
    const second = commands.around('s-1', () => new Promise<void>((resolve) => answers.push(resolve)));
    await commands.around('s-2', async () => undefined);
    answers[0]!();
    await first;
    expect(commands.live().sort()).toEqual(['s-1', 's-2']);
    expect(commands.live()).toEqual(['s-1']);
    answers[1]!();
    await second;
    commands.forget('s-1');
    expect(commands.live()).toEqual([]);
  });
});
