import { revocableKeyQueries, type KeyView } from '../revocable-keys.js';

export type HcApiKeyView = KeyView;

const queries = revocableKeyQueries('hc_api_keys');

/** Keys of the workspace, oldest first. */
export const listHcApiKeys = queries.list;
/** One key of the workspace, or null. */
export const findHcApiKey = queries.find;
/** The live key with this hash: who it acts for and where. */
export const activeHcApiKeyByHash = queries.activeByHash;
