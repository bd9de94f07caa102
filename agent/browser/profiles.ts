import { z } from 'zod';
import type { DeviceType } from '#shared/wire/index.js';

/** How a browser device presents itself: viewport, scale, touch and user agent (CDP Emulation). */
export interface BrowserProfile {
  type: DeviceType;
  model: string;
  manufacturer: string;
  /** CSS pixels in portrait. */
  width: number;
  height: number;
  scale: number;
  mobile: boolean;
  touch: boolean;
  /** Empty: the browser's own user agent. */
  userAgent: string;
  /** Page a `home` action opens. */
  homeUrl: string;
}

const ANDROID_UA =
  'Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36';
const IPAD_UA =
  'Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';

export const BUILT_IN_PROFILES = {
  desktop: { type: 'desktop', model: 'Chromium', manufacturer: 'Chromium', width: 1280, height: 800, scale: 1, mobile: false, touch: false, userAgent: '', homeUrl: 'about:blank' },
  'pixel-7': { type: 'phone', model: 'Pixel 7 (emulated)', manufacturer: 'Google', width: 412, height: 915, scale: 2.625, mobile: true, touch: true, userAgent: ANDROID_UA, homeUrl: 'about:blank' },
  'ipad-mini': { type: 'tablet', model: 'iPad mini (emulated)', manufacturer: 'Apple', width: 768, height: 1024, scale: 2, mobile: true, touch: true, userAgent: IPAD_UA, homeUrl: 'about:blank' },
} as const satisfies Record<string, BrowserProfile>;

export type BuiltInProfileName = keyof typeof BUILT_IN_PROFILES;

/** A profile in the agent's config file: a built-in name, optionally with fields overridden. */
export const ProfileConfig = z.object({
  profile: z.enum(Object.keys(BUILT_IN_PROFILES) as [BuiltInProfileName, ...BuiltInProfileName[]]).default('desktop'),
  type: z.enum(['phone', 'tablet', 'tv', 'watch', 'desktop']).optional(),
  model: z.string().min(1).optional(),
  manufacturer: z.string().min(1).optional(),
  width: z.number().int().min(100).max(4_000).optional(),
  height: z.number().int().min(100).max(4_000).optional(),
  scale: z.number().min(0.5).max(4).optional(),
  mobile: z.boolean().optional(),
  touch: z.boolean().optional(),
  userAgent: z.string().optional(),
  homeUrl: z.string().optional(),
});
export type ProfileConfig = z.infer<typeof ProfileConfig>;

/** The built-in profile with the config's overrides applied. */
export function resolveProfile(config: ProfileConfig): BrowserProfile {
  const base: BrowserProfile = BUILT_IN_PROFILES[config.profile];
  const out: BrowserProfile = { ...base };
  for (const key of Object.keys(base) as (keyof BrowserProfile)[]) {
    const value = config[key];
    if (value !== undefined) (out as unknown as Record<string, unknown>)[key] = value;
  }
  return out;
}
