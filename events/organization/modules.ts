/** The modules a workspace can be entitled to (docs/api-conventions.md, "Identity"). */
export const MODULE_KEYS = ['TMT', 'DF', 'AUTORUNNER', 'HEALTHCHECK'] as const;
export type ModuleKey = (typeof MODULE_KEYS)[number];
