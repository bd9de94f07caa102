import { isDeepStrictEqual } from 'node:util';
import { AppError } from '../errors.js';
import { defineDecider, firstEvent, type Decider, type DomainEvent } from './decider.js';

/** A record with a create/update/delete life cycle: what it is now, and whether it was deleted. */
export interface LifecycleState<Created> {
  record: Created | null;
  deleted: boolean;
}

export type LifecycleCommand<Create extends string, Update extends string, Delete extends string, Created, Fields> =
  | ({ type: Create } & Created)
  | { type: Update; changes: Partial<Fields> }
  | { type: Delete };

export type LifecycleEvent<Created extends string, Updated extends string, Deleted extends string, Payload, Fields, IdKey extends string> =
  | DomainEvent<Created, Payload>
  | DomainEvent<Updated, { [K in IdKey]: string } & { changes: Partial<Fields> }>
  | DomainEvent<Deleted, { [K in IdKey]: string }>;

/**
 * The decider of a record that is created once, changed while it exists (only the fields that differ
 * are recorded, so an update that changes nothing appends nothing) and deleted at most once: projects
 * and test cases. Each names its commands, events, id field and changeable fields; the record's types
 * come first (`lifecycleDecider<Fields, 'projectId', Created>()({...})`), the names are read from the call.
 */
export const lifecycleDecider =
  <Fields extends object, IdKey extends string, Payload extends Fields & { [K in IdKey]: string }>() =>
  <const Names extends { create: string; update: string; delete: string; created: string; updated: string; deleted: string }>(o: {
  /** What the record is called in error messages ("Test case"). */
  what: string;
  idKey: IdKey;
  fields: readonly (keyof Fields & string)[];
  names: Names;
}): Decider<
  LifecycleCommand<Names['create'], Names['update'], Names['delete'], Payload, Fields>,
  LifecycleEvent<Names['created'], Names['updated'], Names['deleted'], Payload, Fields, IdKey>,
  LifecycleState<Payload>
> => {
  type State = LifecycleState<Payload>;
  type Command = LifecycleCommand<Names['create'], Names['update'], Names['delete'], Payload, Fields>;
  type Event = LifecycleEvent<Names['created'], Names['updated'], Names['deleted'], Payload, Fields, IdKey>;
  const live = (state: State): Payload => {
    if (!state.record || state.deleted) throw new AppError('NOT_FOUND', `${o.what} not found`);
    return state.record;
  };
  const idOf = (record: Payload) => ({ [o.idKey]: record[o.idKey] }) as unknown as { [K in IdKey]: string };
  const { names } = o;
  // The handler maps are keyed by the names this record was given, so they are built as records.
  return defineDecider<Command, Event, State>({
    initialState: () => ({ record: null, deleted: false }),
    evolve: {
      [names.created]: (_state: State, event: { payload: Payload }) => ({ record: event.payload, deleted: false }),
      [names.updated]: (state: State, event: { payload: { changes: Partial<Fields> } }) =>
        state.record ? { ...state, record: { ...state.record, ...event.payload.changes } } : state,
      [names.deleted]: (state: State) => ({ ...state, deleted: true }),
    } as never,
    decide: {
      [names.create]: (command: Command & { type: Names['create'] }, state: State) => [firstEvent(state.record, o.what, names.created, command)],
      [names.update]: (command: { changes: Partial<Fields> }, state: State) => {
        const record = live(state);
        const changes: Partial<Fields> = {};
        for (const k of o.fields) {
          const v = command.changes[k];
          if (v !== undefined && !isDeepStrictEqual(v, record[k])) changes[k] = v;
        }
        return Object.keys(changes).length === 0 ? [] : [{ type: names.updated, payload: { ...idOf(record), changes } }];
      },
      [names.delete]: (_command: unknown, state: State) => [{ type: names.deleted, payload: idOf(live(state)) }],
    } as never,
  });
};
