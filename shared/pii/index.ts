export { migratePersonKeys, migrationPendingThrough, OPEN_CACHE_MS, PersonKeys } from './person-keys.js';
export type { PersonKey } from './person-keys.js';
export { erasedValue, PersonalData, sealedPerson, userPerson } from './personal-data.js';
export type { PersonalDataRules, PersonalFields, PersonalKind } from './personal-data.js';
export { personalDataOf, sealingEventStore } from './sealing-event-store.js';
