import type { DeviceEvent, DevicePreferenceEvent } from '#services/df/devices/events.js';
import { DEVICE_EVENT_TYPES, DEVICE_PREFERENCE_EVENT_TYPES } from '#services/df/devices/events.js';
import type { Projection } from '../types.js';

type Handled = DeviceEvent | DevicePreferenceEvent;

/** Devices as the list shows them, and each user's aliases and favorites. */
export const dfDevicesProjection: Projection = {
  name: 'df-devices',
  version: 1,
  eventTypes: [...DEVICE_EVENT_TYPES, ...DEVICE_PREFERENCE_EVENT_TYPES],
  schema: `
    CREATE TABLE IF NOT EXISTS df_devices (
      device_id text PRIMARY KEY,
      name text NOT NULL,
      platform text NOT NULL,
      os_version text NOT NULL,
      model text NOT NULL,
      manufacturer text NOT NULL,
      type text NOT NULL,
      is_real boolean NOT NULL,
      provider text NOT NULL,
      screen jsonb NOT NULL,
      host_id text NOT NULL,
      node_name text NOT NULL,
      hub_id text NOT NULL,
      company_id integer,
      status text NOT NULL,
      health text NOT NULL DEFAULT 'ok',
      session_id text,
      session_type text,
      last_seen_at timestamptz NOT NULL,
      connected_at timestamptz NOT NULL
    );
    CREATE INDEX IF NOT EXISTS df_devices_host ON df_devices (host_id);
    CREATE INDEX IF NOT EXISTS df_devices_status ON df_devices (status);
    CREATE INDEX IF NOT EXISTS df_devices_name ON df_devices (name, device_id);
    CREATE TABLE IF NOT EXISTS df_device_prefs (
      user_id integer NOT NULL,
      device_id text NOT NULL,
      alias text,
      favorite boolean NOT NULL DEFAULT false,
      PRIMARY KEY (user_id, device_id)
    );`,
  tables: ['df_devices', 'df_device_prefs'],
  async apply(tx, recorded) {
    const event = { type: recorded.type, payload: recorded.payload } as Handled;
    const at = recorded.metadata.occurredAt;
    switch (event.type) {
      case 'DeviceConnected': {
        const { deviceId, facts: f, placement: p, status } = event.payload;
        await tx.query(
          `INSERT INTO df_devices (device_id, name, platform, os_version, model, manufacturer, type, is_real, provider, screen,
             host_id, node_name, hub_id, company_id, status, last_seen_at, connected_at)
           VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$16)
           ON CONFLICT (device_id) DO UPDATE SET name = $2, platform = $3, os_version = $4, model = $5, manufacturer = $6, type = $7,
             is_real = $8, provider = $9, screen = $10, host_id = $11, node_name = $12, hub_id = $13, company_id = $14, status = $15,
             last_seen_at = $16, connected_at = $16`,
          [deviceId, f.name, f.platform, f.osVersion, f.model, f.manufacturer, f.type, f.isRealDevice, f.provider, JSON.stringify(f.screen),
            p.hostId, p.nodeName, p.hubId, p.companyId, status, at],
        );
        return;
      }
      case 'DeviceDisconnected':
        await tx.query(`UPDATE df_devices SET status = $2, last_seen_at = $3 WHERE device_id = $1`, [event.payload.deviceId, event.payload.status, at]);
        return;
      case 'DeviceStatusChanged':
        await tx.query(`UPDATE df_devices SET status = $2, health = $3 WHERE device_id = $1`, [event.payload.deviceId, event.payload.status, event.payload.health]);
        return;
      case 'DeviceAllocated':
        await tx.query(`UPDATE df_devices SET status = $2, session_id = $3, session_type = $4 WHERE device_id = $1`, [
          event.payload.deviceId, event.payload.status, event.payload.sessionId, event.payload.sessionType,
        ]);
        return;
      case 'DeviceReleased':
        await tx.query(`UPDATE df_devices SET status = $2, session_id = NULL, session_type = NULL WHERE device_id = $1`, [event.payload.deviceId, event.payload.status]);
        return;
      case 'DeviceAliasSet':
        await tx.query(
          `INSERT INTO df_device_prefs (user_id, device_id, alias) VALUES ($1, $2, $3)
           ON CONFLICT (user_id, device_id) DO UPDATE SET alias = $3`,
          [event.payload.userId, event.payload.deviceId, event.payload.alias],
        );
        return;
      case 'DeviceAliasRemoved':
        await tx.query(`UPDATE df_device_prefs SET alias = NULL WHERE user_id = $1 AND device_id = $2`, [event.payload.userId, event.payload.deviceId]);
        return;
      case 'DeviceFavorited':
      case 'DeviceUnfavorited':
        await tx.query(
          `INSERT INTO df_device_prefs (user_id, device_id, favorite) VALUES ($1, $2, $3)
           ON CONFLICT (user_id, device_id) DO UPDATE SET favorite = $3`,
          [event.payload.userId, event.payload.deviceId, event.type === 'DeviceFavorited'],
        );
        return;
      default: {
        const never: never = event;
        throw new Error(`Unhandled ${JSON.stringify(never)}`);
      }
    }
  },
};
