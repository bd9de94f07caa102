import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineEvents } from './event-contract.js';

const contract = defineEvents({
  ThingCreated: z.object({ thingId: z.string(), size: z.number().int() }),
  ThingDeleted: z.object({ thingId: z.string() }),
});

describe('defineEvents', () => {
  it('lists the type names in declaration order and knows its own types only', () => {
    expect(contract.types).toEqual(['ThingCreated', 'ThingDeleted']);
    expect(contract.has('ThingDeleted')).toBe(true);
    expect(contract.has('OtherThing')).toBe(false);
  });

  it('parses a payload that matches its schema', () => {
    expect(contract.parse({ type: 'ThingCreated', payload: { thingId: 't', size: 3 } })).toEqual({
      type: 'ThingCreated',
      payload: { thingId: 't', size: 3 },
    });
  });

  it('refuses a payload that does not match, naming the field, and an unknown type', () => {
    expect(() => contract.parse({ type: 'ThingCreated', payload: { thingId: 't', size: 'big' } })).toThrow(/size/);
    expect(() => contract.parse({ type: 'Nope', payload: {} })).toThrow(/Unknown event type Nope/);
  });
});
