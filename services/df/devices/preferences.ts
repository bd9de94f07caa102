import type { Decider } from '#shared/es/index.js';
import type { DevicePreferenceEvent } from '#events/df/devices.js';
import { unreachable } from '#shared/unreachable.js';

export type PreferencesState = ReadonlyMap<string, { alias: string | null; favorite: boolean }>;

export type PreferenceCommand =
  | { type: 'SetAlias'; userId: number; deviceId: string; alias: string | null }
  | { type: 'SetFavorite'; userId: number; deviceId: string; favorite: boolean };

const entry = (state: PreferencesState, deviceId: string) => state.get(deviceId) ?? { alias: null, favorite: false };

/** A user's aliases and favorites; setting what is already set changes nothing. */
export const preferencesDecider: Decider<PreferenceCommand, DevicePreferenceEvent, PreferencesState> = {
  initialState: () => new Map(),
  evolve(state, event) {
    const next = new Map(state);
    const current = entry(state, event.payload.deviceId);
    switch (event.type) {
      case 'DeviceAliasSet':
        next.set(event.payload.deviceId, { ...current, alias: event.payload.alias });
        return next;
      case 'DeviceAliasRemoved':
        next.set(event.payload.deviceId, { ...current, alias: null });
        return next;
      case 'DeviceFavorited':
        next.set(event.payload.deviceId, { ...current, favorite: true });
        return next;
      case 'DeviceUnfavorited':
        next.set(event.payload.deviceId, { ...current, favorite: false });
        return next;
      default:
        return unreachable(event);
    }
  },
  decide(command, state) {
    const current = entry(state, command.deviceId);
    const { userId, deviceId } = command;
    switch (command.type) {
      case 'SetAlias':
        if (current.alias === command.alias) return [];
        return command.alias === null
          ? [{ type: 'DeviceAliasRemoved', payload: { userId, deviceId } }]
          : [{ type: 'DeviceAliasSet', payload: { userId, deviceId, alias: command.alias } }];
      case 'SetFavorite':
        if (current.favorite === command.favorite) return [];
        return [{ type: command.favorite ? 'DeviceFavorited' : 'DeviceUnfavorited', payload: { userId, deviceId } }];
      default:
        return unreachable(command, 'command');
    }
  },
};
