import { describe, expect, it } from 'vitest';
import { argumentsOf, commandOf, outcomeOf, textLine } from './command-log.js';

const answer = (status: number, value: unknown) => ({ status, contentType: 'application/json', body: Buffer.from(JSON.stringify({ value })) });

describe('the WebDriver command log', () => {
  it('names W3C commands, their path template and the element they act on', () => {
    expect(commandOf('POST', '/element')).toEqual({ command: 'findElement', path: '/element', element: null });
    expect(commandOf('POST', '/element/abc.1/click')).toEqual({ command: 'elementClick', path: '/element/{elementId}/click', element: 'abc.1' });
    expect(commandOf('GET', '/element/abc/attribute/href')).toMatchObject({ command: 'getElementAttribute', element: 'abc' });
    expect(commandOf('GET', '/element/active')).toMatchObject({ command: 'getActiveElement', element: null });
    expect(commandOf('GET', '/title')).toMatchObject({ command: 'getTitle' });
    expect(commandOf('DELETE', '/cookie/sid')).toMatchObject({ command: 'deleteCookie' });
    // Unknown ones by request, element ids still recognised.
    expect(commandOf('POST', '/appium/element/e9/value')).toMatchObject({ command: 'POST /appium/element/e9/value', element: null });
    expect(commandOf('POST', '/element/e9/custom/thing')).toEqual({ command: 'POST /element/{elementId}/custom/thing', path: '/element/{elementId}/custom/thing', element: 'e9' });
  });

  it('keeps typed text as its length only, and no cookie values or script arguments', () => {
    expect(argumentsOf('elementSendKeys', { text: 'p4ssw0rd!', value: [...'p4ssw0rd!'] })).toEqual({ text: '[9 characters]' });
    expect(argumentsOf('elementSendKeys', { value: ['s', 'e', 'c'] })).toEqual({ text: '[3 characters]' });
    expect(argumentsOf('sendAlertText', { text: 'secret' })).toEqual({ text: '[6 characters]' });
    expect(argumentsOf('addCookie', { cookie: { name: 'session', value: 'SECRET' } })).toEqual({ name: 'session' });
    expect(argumentsOf('executeScript', { script: 'return 1', args: ['SECRET', 2] })).toEqual({ script: 'return 1', args: 2 });
    const actions = argumentsOf('performActions', {
      actions: [
        { type: 'key', id: 'k', actions: [{ type: 'keyDown', value: 'S' }, { type: 'keyUp', value: 'S' }, { type: 'keyDown', value: 'X' }, { type: 'keyUp', value: 'X' }] },
        { type: 'pointer', id: 'p', actions: [{ type: 'pointerMove', x: 1, y: 2 }, { type: 'pointerDown' }, { type: 'pointerUp' }] },
      ],
    });
    expect(actions).toEqual({ actions: [{ type: 'key', steps: 4, typed: '[2 characters]' }, { type: 'pointer', steps: 3 }] });
    expect(JSON.stringify(actions)).not.toMatch(/"S"|"X"/);
    expect(argumentsOf('findElement', { using: 'css selector', value: '#login' })).toEqual({ using: 'css selector', value: '#login' });
    expect(argumentsOf('getElementProperty', {})).toBeNull();
  });

  it('reads outcomes: found elements, safe answers, W3C errors; never page text', () => {
    expect(outcomeOf('findElement', answer(200, { 'element-6066-11e4-a52e-4f735466cecf': 'e1' }))).toEqual({ outcome: 'success', status: 200, result: { element: 'e1' } });
    expect(outcomeOf('findElements', answer(200, [{ 'element-6066-11e4-a52e-4f735466cecf': 'a' }, { 'element-6066-11e4-a52e-4f735466cecf': 'b' }]))).toMatchObject({ result: { count: 2, elements: ['a', 'b'] } });
    expect(outcomeOf('getTitle', answer(200, 'Home'))).toMatchObject({ result: 'Home' });
    expect(outcomeOf('getElementProperty', answer(200, 'typed password'))).toEqual({ outcome: 'success', status: 200 });
    expect(outcomeOf('getElementText', answer(200, 'account 123'))).toEqual({ outcome: 'success', status: 200 });
    expect(outcomeOf('elementClick', answer(404, { error: 'no such element', message: 'Unable to locate\nstack' }))).toEqual({
      outcome: 'error',
      status: 404,
      error: 'no such element',
      message: 'Unable to locate',
    });
  });

  it('writes one text line per command', () => {
    const line = textLine(3, { startedAt: '2026-01-01T12:00:01.234Z', durationMs: 41, command: 'findElement', method: 'POST', path: '/element', args: { using: 'css selector', value: '#x' }, outcome: 'success', status: 200, result: { element: 'e' } });
    expect(line).toBe('2026-01-01 12:00:01.234      3      41 ms  findElement  POST /element  using="css selector" value="#x"  OK 200 → {"element":"e"}');
  });
});
