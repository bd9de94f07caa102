/** What the catalog knows of an app build, read from the file itself. */
export interface AppMetadata {
  platform: 'android' | 'ios';
  /** Android package name or iOS bundle id. */
  identifier: string;
  /** The label shown under the icon; the identifier when the build has none. */
  name: string;
  versionName: string;
  /** Android `versionCode`, iOS `CFBundleVersion`. */
  versionCode: string;
  /** Android minimum SDK level, iOS `MinimumOSVersion`. */
  minOs: string;
  /** Android target SDK level, iOS `DTPlatformVersion` (empty when the build does not say). */
  targetOs: string;
  /** Native ABIs (`arm64-v8a`, ...) or iOS architectures; empty for none. */
  abis: string[];
  /** Android `uses-permission` names; iOS usage descriptions' keys (`NSCameraUsageDescription`, ...). */
  permissions: string[];
  icon: { bytes: Buffer; contentType: string } | null;
}
