export { isSpecialPurposeAddress } from './special-addresses.js';
export { AddressRefused, pinnedLookup, resolveChecked, systemResolve, type CheckedAddress, type Resolve } from './pinned-address.js';
