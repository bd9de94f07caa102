import { revocableKeyQueries, type KeyView } from '../revocable-keys.js';

export type ApiKeyView = KeyView;

const queries = revocableKeyQueries('df_api_keys');

/** Keys of the workspace, oldest first. */
export const listApiKeys = queries.list;
/** One key of the workspace, or null. */
export const findApiKey = queries.find;
/** The live key with this hash: who it acts for and where. */
export const activeKeyByHash = queries.activeByHash;
/** How many live keys the company holds, in all its workspaces. */
export const countActiveApiKeys = queries.activeInCompany;
