import { AppError } from '../errors.js';

/** The state of a record that is created once and deleted once: `status` says which (`none`, `active`, `deleted`, ...). */
interface WithStatus {
  status: string;
}

type Active<S> = Extract<S, { status: 'active' }>;

/**
 * The record a command acts on: active, and of the caller's company. One never created, deleted, or of
 * another company is 404 `<what> not found` alike, a tenant wall on the write side that trusts no read
 * model.
 */
export function activeIn<S extends WithStatus>(state: S, companyId: number, what: string): Active<S> & { companyId: number } {
  if (state.status !== 'active' || (state as { companyId?: unknown }).companyId !== companyId) throw new AppError('NOT_FOUND', `${what} not found`);
  return state as Active<S> & { companyId: number };
}

/**
 * An `evolve` handler for an event that only changes a record in the states `is` accepts (its live
 * states): in any other (not created yet, deleted) the event changes nothing.
 */
export const evolveWhile =
  <S, Live extends S>(is: (state: S) => state is Live) =>
  <E>(evolve: (state: Live, event: E) => NoInfer<S>) =>
  (state: S, event: E): S =>
    is(state) ? evolve(state, event) : state;

/** {@link evolveWhile} for the records whose one live state is `active` (the state comes from where the handler is used). */
export const whileActive = <S extends WithStatus, E>(evolve: (state: Active<S>, event: E) => NoInfer<S>): ((state: S, event: E) => S) =>
  evolveWhile((state: S): state is Active<S> => state.status === 'active')(evolve);

/**
 * The fields of `keys` an update command sets to something other than what the record has, in that
 * order: an update that changes nothing records nothing. `same` compares a field's old and new value.
 */
export function changedFields<T extends object, K extends keyof T>(
  record: T,
  wanted: { [P in K]?: T[P] },
  keys: readonly K[],
  same: (a: T[K], b: T[K]) => boolean = (a, b) => a === b,
): Partial<Pick<T, K>> {
  const changes: Partial<Pick<T, K>> = {};
  for (const key of keys) {
    const value = wanted[key];
    if (value !== undefined && !same(value as T[K], record[key])) changes[key] = value as T[K];
  }
  return changes;
}

/** A group of users (a team, a user group) with one more member: an `evolve` step. */
export const withMember = <S extends { memberIds: number[] }>(state: S, event: { payload: { userId: number } }): S => ({
  ...state,
  memberIds: [...state.memberIds, event.payload.userId],
});

/** A group of users without one of its members: an `evolve` step. */
export const withoutMember = <S extends { memberIds: number[] }>(state: S, event: { payload: { userId: number } }): S => ({
  ...state,
  memberIds: state.memberIds.filter((id) => id !== event.payload.userId),
});

/**
 * Whether adding or removing one member changes a group of users: adding a user who already is a
 * member changes nothing, removing a user who is not one is 404 (`notMember`).
 */
export function changesMembers(memberIds: readonly number[], userId: number, change: 'add' | 'remove', notMember: string): boolean {
  const member = memberIds.includes(userId);
  if (change === 'remove' && !member) throw new AppError('NOT_FOUND', notMember);
  return change === 'remove' || !member;
}
