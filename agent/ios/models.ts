/**
 * Marketing names and native screen sizes (pixels of a screenshot, scale = pixels per point) of iOS
 * product types (`ProductType` from lockdown). A product type missing here is shown as is, with the
 * screen size read from the first screenshot.
 */
const MODELS: Record<string, [name: string, width: number, height: number, scale: number]> = {
  'iPhone12,1': ['iPhone 11', 828, 1792, 2],
  'iPhone12,3': ['iPhone 11 Pro', 1125, 2436, 3],
  'iPhone12,5': ['iPhone 11 Pro Max', 1242, 2688, 3],
  'iPhone12,8': ['iPhone SE (2nd generation)', 750, 1334, 2],
  'iPhone13,1': ['iPhone 12 mini', 1080, 2340, 3],
  'iPhone13,2': ['iPhone 12', 1170, 2532, 3],
  'iPhone13,3': ['iPhone 12 Pro', 1170, 2532, 3],
  'iPhone13,4': ['iPhone 12 Pro Max', 1284, 2778, 3],
  'iPhone14,2': ['iPhone 13 Pro', 1170, 2532, 3],
  'iPhone14,3': ['iPhone 13 Pro Max', 1284, 2778, 3],
  'iPhone14,4': ['iPhone 13 mini', 1080, 2340, 3],
  'iPhone14,5': ['iPhone 13', 1170, 2532, 3],
  'iPhone14,6': ['iPhone SE (3rd generation)', 750, 1334, 2],
  'iPhone14,7': ['iPhone 14', 1170, 2532, 3],
  'iPhone14,8': ['iPhone 14 Plus', 1284, 2778, 3],
  'iPhone15,2': ['iPhone 14 Pro', 1179, 2556, 3],
  'iPhone15,3': ['iPhone 14 Pro Max', 1290, 2796, 3],
  'iPhone15,4': ['iPhone 15', 1179, 2556, 3],
  'iPhone15,5': ['iPhone 15 Plus', 1290, 2796, 3],
  'iPhone16,1': ['iPhone 15 Pro', 1179, 2556, 3],
  'iPhone16,2': ['iPhone 15 Pro Max', 1290, 2796, 3],
  'iPhone17,1': ['iPhone 16 Pro', 1206, 2622, 3],
  'iPhone17,2': ['iPhone 16 Pro Max', 1320, 2868, 3],
  'iPhone17,3': ['iPhone 16', 1179, 2556, 3],
  'iPhone17,4': ['iPhone 16 Plus', 1290, 2796, 3],
  'iPhone17,5': ['iPhone 16e', 1170, 2532, 3],
  'iPad13,1': ['iPad Air (4th generation)', 1640, 2360, 2],
  'iPad13,2': ['iPad Air (4th generation)', 1640, 2360, 2],
  'iPad13,4': ['iPad Pro 11-inch (3rd generation)', 1668, 2388, 2],
  'iPad13,16': ['iPad Air (5th generation)', 1640, 2360, 2],
  'iPad13,18': ['iPad (10th generation)', 1640, 2360, 2],
  'iPad14,1': ['iPad mini (6th generation)', 1488, 2266, 2],
  'iPad14,3': ['iPad Pro 11-inch (4th generation)', 1668, 2388, 2],
  'iPad14,8': ['iPad Air 11-inch (M2)', 1640, 2360, 2],
  'iPad16,3': ['iPad Pro 11-inch (M4)', 1668, 2420, 2],
};

export interface IosModel {
  name: string;
  screen: { width: number; height: number; scale: number } | null;
}

export function iosModel(productType: string): IosModel {
  const m = MODELS[productType];
  return m ? { name: m[0], screen: { width: m[1], height: m[2], scale: m[3] } } : { name: productType || 'iOS device', screen: null };
}
