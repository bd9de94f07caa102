import { z } from 'zod';
import { defineEvents, type EventOf } from '#shared/es/index.js';
import { tenantScope } from '../fields.js';

/** What an invitation to a session lets its holder do: watch the screen, or also drive the device. */
export const SessionAccess = z.enum(['view', 'control']);
export type SessionAccess = z.output<typeof SessionAccess>;
/** A named coworker (`user`) or a shareable link (`link`). */
export const InvitationType = z.enum(['user', 'link']);
export type InvitationType = z.output<typeof InvitationType>;

const ids = { sessionId: z.string(), invitationId: z.string() };

/**
 * Sharing of one device session (`device-session-sharing-<sessionId>`): invitations, who accepted
 * them, and viewers the owner disconnected (their access withdrawn). Only the SHA-256 of an
 * invitation's token is ever stored.
 */
export const sharingEvents = defineEvents({
  DeviceSessionInvitationCreated: z.object({
    ...ids,
    type: InvitationType,
    access: SessionAccess,
    /** The invited coworker (user invitations); null for a link. */
    userId: z.number().int().nullable(),
    email: z.string().nullable(),
    tokenHash: z.string(),
    expiresAt: z.string(),
    /** How many users may accept a link; null: no limit. */
    maxUses: z.number().int().nullable(),
    ...tenantScope,
    createdBy: z.number().int(),
  }),
  DeviceSessionInvitationRevoked: z.object(ids),
  DeviceSessionInvitationAccepted: z.object({ ...ids, userId: z.number().int(), access: SessionAccess, uses: z.number().int() }),
  DeviceSessionViewerDisconnected: z.object({ sessionId: z.string(), userId: z.number().int() }),
  /** Someone started watching the session's screen (the owner included), with the access they had. */
  DeviceSessionViewerJoined: z.object({ sessionId: z.string(), userId: z.number().int(), access: SessionAccess }),
});
export type SharingEvent = EventOf<typeof sharingEvents>;
export const SHARING_EVENT_TYPES = sharingEvents.types;

/** Stream of one session's sharing. */
export const sharingStream = (sessionId: string) => `device-session-sharing-${sessionId}`;
