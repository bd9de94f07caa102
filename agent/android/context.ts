import type { AdbDevice } from './adb.js';

/** What the parts of an Android device (its apps, its files) share: the device, its shell, and whether a session holds it. */
export interface AndroidContext {
  device: AdbDevice;
  sh(command: string): Promise<string>;
  /** NOT_PREPARED unless a session holds the device. */
  requirePrepared(): void;
}
