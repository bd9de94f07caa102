import type { DomainEvent } from '#shared/es/decider.js';

export interface ProjectFields {
  name: string;
  key: string;
  description: string;
}

/** A project of a workspace; its `key` is held by a key claim, unique per company. */
export type ProjectEvent =
  | DomainEvent<'ProjectCreated', { projectId: string; companyId: number; workspaceId: number } & ProjectFields>
  | DomainEvent<'ProjectUpdated', { projectId: string; changes: Partial<ProjectFields> }>
  | DomainEvent<'ProjectDeleted', { projectId: string }>;

/** Who holds a project key of a company (`tmt-project-key-<companyId>-<KEY>`). */
export type ProjectKeyEvent =
  | DomainEvent<'ProjectKeyClaimed', { companyId: number; key: string; projectId: string }>
  | DomainEvent<'ProjectKeyReleased', { companyId: number; key: string; projectId: string }>;

export const PROJECT_EVENT_TYPES = ['ProjectCreated', 'ProjectUpdated', 'ProjectDeleted'] as const satisfies readonly ProjectEvent['type'][];

export const projectStream = (projectId: string) => `tmt-project-${projectId}`;
export const projectKeyStream = (companyId: number, key: string) => `tmt-project-key-${companyId}-${key}`;

/** 2–10 upper-case letters or digits (decisions.md, "The /v1 set"). */
export const PROJECT_KEY_PATTERN = /^[A-Z0-9]{2,10}$/;
