import type { DeviceInfo } from '#shared/wire/index.js';
import { shell, type AdbDevice } from './adb.js';

/** What an Android device is, read from its properties (`getprop`) and `wm size`. */
export async function describeAndroidDevice(device: AdbDevice, serial: string, deviceId: string): Promise<DeviceInfo> {
  const props = await device.getProperties();
  const get = (key: string) => (props[key] ?? '').trim();
  const size = parseWmSize(await shell(device, 'wm size'));
  const density = Number(get('ro.sf.lcd_density')) || 0;
  const characteristics = get('ro.build.characteristics').split(',');
  const hardware = get('ro.hardware');
  const emulator = get('ro.kernel.qemu') === '1' || get('ro.boot.qemu') === '1' || ['goldfish', 'ranchu', 'vbox86'].includes(hardware) || serial.startsWith('emulator-');
  const smallestDp = size && density ? (Math.min(size.width, size.height) * 160) / density : 0;
  const type = characteristics.includes('tablet') || smallestDp >= 600 ? 'tablet' : characteristics.includes('tv') ? 'tv' : characteristics.includes('watch') ? 'watch' : 'phone';
  const model = get('ro.product.model') || 'Android device';
  return {
    deviceId,
    name: `${model} (${serial})`.slice(0, 200),
    platform: 'android',
    osVersion: get('ro.build.version.release') || 'unknown',
    model: model.slice(0, 200),
    manufacturer: (get('ro.product.manufacturer') || 'unknown').slice(0, 200),
    type,
    isRealDevice: !emulator,
    provider: 'android',
    screen: { width: size?.width ?? 1080, height: size?.height ?? 1920, scale: 1 },
  };
}

/** `wm size`: the override size when there is one, else the physical size. */
export function parseWmSize(output: string): { width: number; height: number } | null {
  const override = /Override size:\s*(\d+)x(\d+)/.exec(output);
  const physical = /Physical size:\s*(\d+)x(\d+)/.exec(output);
  const m = override ?? physical;
  return m ? { width: Number(m[1]), height: Number(m[2]) } : null;
}
