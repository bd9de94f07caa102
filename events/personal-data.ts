import type { PersonalDataRules, PersonalFields, PersonalKind } from '#shared/pii/index.js';

/**
 * Personal data in events: which fields hold it, and whose it is. Each such field is sealed with a key of
 * its person when the event is appended (shared/pii) and opened when it is read; erasing the person
 * destroys the key, after which the field reads as its placeholder ("Erased person").
 *
 * A field is named by its path in the payload (`changes.name`; `results.*.notes` for each element of an
 * array). Its person is the user the payload names (`userId`, a claim's `ownerId`), the event's actor
 * (`metadata.actorId`), for free text a person typed, or the `userId` beside the field (`holder`: each
 * grant of a review is its own person's). Besides these, every event's `metadata.clientAddress` is its actor's.
 */

const ofUser = (fields: Record<string, PersonalKind>): PersonalFields => ({ person: 'userId', fields });
const ofActor = (fields: Record<string, PersonalKind>): PersonalFields => ({ person: 'actor', fields });

/** The personal fields of each event type that has any. */
export const PERSONAL_FIELDS: Readonly<Record<string, PersonalFields>> = {
  // organization: users, their e-mail claims and sign-ins
  UserRegistered: ofUser({ email: 'email', username: 'username', name: 'name' }),
  UserInvited: ofUser({ email: 'email', username: 'username' }),
  UserActivated: ofUser({ name: 'name' }),
  UserUpdated: ofUser({ 'changes.name': 'name', 'changes.username': 'username', 'changes.title': 'text', 'changes.phone': 'text' }),
  UserDeleted: ofUser({ email: 'email', username: 'username' }),
  EmailClaimed: ofUser({ email: 'email' }),
  NameClaimed: { person: 'ownerId', fields: { name: 'username' }, onlyWhen: { field: 'scope', equals: 'username' } },
  NameReleased: { person: 'ownerId', fields: { name: 'username' }, onlyWhen: { field: 'scope', equals: 'username' } },
  EmailReleased: ofUser({ email: 'email' }),
  SignInSucceeded: ofUser({ address: 'address', userAgent: 'agent' }),
  SignInFailed: ofUser({ address: 'address', userAgent: 'agent' }),
  SignInSessionStarted: ofUser({ address: 'address', userAgent: 'agent' }),
  // a device session shared with a coworker: their address
  DeviceSessionInvitationCreated: ofUser({ email: 'email' }),
  // the names each reviewed grant's person had when the review started
  AccessReviewStarted: { person: 'holder', fields: { 'items.*.userName': 'name', 'items.*.userEmail': 'email' } },
  // free text a person typed
  AccessReviewItemDecided: ofActor({ note: 'text' }),
  DeviceSessionNotesUpdated: ofActor({ notes: 'text' }),
  // a booking's note is its holder's, whoever wrote or moved it (an administrator moving a booking carries its note)
  DeviceReservationScheduled: ofUser({ note: 'text' }),
  DeviceReservationRescheduled: ofUser({ note: 'text' }),
  TestResultsRecorded: ofActor({ 'results.*.notes': 'text' }),
  RunResultsReported: ofActor({ 'results.*.notes': 'text' }),
};

/** The personal fields of events, and the metadata field every event may carry that is its actor's. */
export const PERSONAL_DATA: PersonalDataRules = { byType: PERSONAL_FIELDS, metadata: { clientAddress: 'address' } };
