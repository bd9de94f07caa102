import type { PlistDict } from './codec.js';

/**
 * What a test device's battery and storage are, as the test scripts them (and may change at any time:
 * the next `GetValue` answers the new values). The disk's figures are bytes.
 */
export interface PeerHealth {
  /** `BatteryCurrentCapacity`, percent. */
  batteryLevel: number;
  /** `BatteryIsCharging`. */
  charging: boolean;
  /** `ExternalConnected`: on a cable (a charging device always is). */
  externalConnected: boolean;
  /** `FullyCharged`. */
  fullyCharged: boolean;
  /** `TotalDataCapacity`: the data partition's size. */
  dataCapacityBytes: number;
  /** `AmountDataAvailable`: what apps may still use; `TotalDataAvailable` is it and the reserve together. */
  dataFreeBytes: number;
  /** `AmountDataReserved`: what iOS keeps back. */
  dataReservedBytes: number;
  /** Lockdown domains the device does not answer (refused with `MissingValue`). */
  withoutDomains: string[];
}

const GB = 1024 ** 3;

export const defaultPeerHealth = (): PeerHealth => ({
  batteryLevel: 87,
  charging: true,
  externalConnected: true,
  fullyCharged: false,
  dataCapacityBytes: 110 * GB,
  dataFreeBytes: 42 * GB,
  dataReservedBytes: 200 * 1024 * 1024,
  withoutDomains: [],
});

/** The lockdown domains beyond the default one that answer only inside a paired session, as on a device. */
export const SESSION_DOMAINS = new Set(['com.apple.mobile.battery', 'com.apple.disk_usage']);

/**
 * The values of a lockdown domain as a device answers them (the keys `ideviceinfo -q <domain>` prints on
 * a real iPhone), or null for a domain the device does not answer. A domain the peer does not model
 * answers an empty dictionary.
 */
export function domainValues(health: PeerHealth, domain: string): PlistDict | null {
  if (health.withoutDomains.includes(domain)) return null;
  switch (domain) {
    case 'com.apple.mobile.battery':
      return {
        BatteryCurrentCapacity: health.batteryLevel,
        BatteryIsCharging: health.charging,
        ExternalChargeCapable: true,
        ExternalConnected: health.externalConnected || health.charging,
        FullyCharged: health.fullyCharged,
        GasGaugeCapability: true,
        HasBattery: true,
      };
    case 'com.apple.disk_usage': {
      const system = 12 * GB;
      return {
        TotalDiskCapacity: health.dataCapacityBytes + system,
        TotalSystemCapacity: system,
        TotalSystemAvailable: 0,
        TotalDataCapacity: health.dataCapacityBytes,
        TotalDataAvailable: health.dataFreeBytes + health.dataReservedBytes,
        AmountDataReserved: health.dataReservedBytes,
        AmountDataAvailable: health.dataFreeBytes,
        CalculateDiskUsage: 'OkilyDokily',
      };
    }
    default:
      return {};
  }
}
