import { z } from 'zod';
import { MODULE_KEYS } from '#events/organization/modules.js';

const NAME_MIN = 2;
const NAME_MAX = 64;
const DESCRIPTION_MAX = 1000;
const SETTINGS_MAX_BYTES = 16 * 1024;
// Control characters would make names unreadable in pickers and logs.
const NAME_PATTERN = /^[^\u0000-\u001f\u007f]+$/;

/** The rules applied when a workspace is created or changed, served as data at `/workspaces/validation-rules`. */
export const WORKSPACE_VALIDATION_RULES = {
  name: {
    required: true,
    minLength: NAME_MIN,
    maxLength: NAME_MAX,
    pattern: NAME_PATTERN.source,
    trimmed: true,
    unique: 'per company, case-insensitive',
  },
  description: { required: false, maxLength: DESCRIPTION_MAX, default: '' },
  settings: { required: false, type: 'object', maxBytes: SETTINGS_MAX_BYTES, default: {} },
  modules: { required: false, allowed: [...MODULE_KEYS], default: [...MODULE_KEYS] },
} as const;

export const workspaceName = z.string().trim().min(NAME_MIN).max(NAME_MAX).regex(NAME_PATTERN, 'must not contain control characters');
export const workspaceDescription = z.string().trim().max(DESCRIPTION_MAX);
export const workspaceSettings = z
  .record(z.string(), z.unknown())
  .refine((s) => Buffer.byteLength(JSON.stringify(s)) <= SETTINGS_MAX_BYTES, `at most ${SETTINGS_MAX_BYTES} bytes as JSON`);
export const moduleList = z.array(z.enum(MODULE_KEYS)).max(MODULE_KEYS.length);
