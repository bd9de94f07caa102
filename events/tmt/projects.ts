import { z } from 'zod';
import { defineEvents, type EventOf } from '#shared/es/index.js';
import { tenantScope } from '../fields.js';

/** 2–10 upper-case letters or digits (docs/api-conventions.md, "The /v1 set"). */
export const PROJECT_KEY_PATTERN = /^[A-Z0-9]{2,10}$/;

const projectFields = z.object({ name: z.string(), key: z.string(), description: z.string() });
export type ProjectFields = z.output<typeof projectFields>;

/** A project of a workspace (`tmt-project-<id>`); its `key` is held by a key claim, unique per company. */
export const projectEvents = defineEvents({
  ProjectCreated: projectFields.extend({ projectId: z.string(), ...tenantScope }),
  ProjectUpdated: z.object({ projectId: z.string(), changes: projectFields.partial() }),
  ProjectDeleted: z.object({ projectId: z.string() }),
});
export type ProjectEvent = EventOf<typeof projectEvents>;
export const PROJECT_EVENT_TYPES = projectEvents.types;
export const projectStream = (projectId: string) => `tmt-project-${projectId}`;

/** Who holds a project key of a company (`tmt-project-key-<companyId>-<KEY>`). */
export const projectKeyEvents = defineEvents({
  ProjectKeyClaimed: z.object({ companyId: z.number().int(), key: z.string(), projectId: z.string() }),
  ProjectKeyReleased: z.object({ companyId: z.number().int(), key: z.string(), projectId: z.string() }),
});
export type ProjectKeyEvent = EventOf<typeof projectKeyEvents>;
export const projectKeyStream = (companyId: number, key: string) => `tmt-project-key-${companyId}-${key}`;
