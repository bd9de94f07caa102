import { USER_GROUP_EVENT_TYPES, userGroupEvents, type UserGroupEvent } from '#events/tmt/user-groups.js';
import { applyByType, type Projection } from '../types.js';

/** Test management's user groups of each company, with their members. */
export const tmtUserGroupsProjection: Projection = {
  name: 'tmt-user-groups',
  version: 1,
  eventTypes: USER_GROUP_EVENT_TYPES,
  schema: `
    CREATE TABLE IF NOT EXISTS tmt_user_groups (
      group_id text PRIMARY KEY,
      company_id integer NOT NULL,
      name text NOT NULL,
      description text NOT NULL,
      member_ids integer[] NOT NULL,
      created_by integer,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    );
    CREATE INDEX IF NOT EXISTS tmt_user_groups_company ON tmt_user_groups (company_id, lower(name));`,
  tables: ['tmt_user_groups'],
  apply: applyByType<UserGroupEvent>({
    UserGroupCreated: async (tx, event, at, recorded) => {
      const p = event.payload;
      const actor = typeof recorded.metadata.actorId === 'number' ? recorded.metadata.actorId : null;
      await tx.query(
        `INSERT INTO tmt_user_groups (group_id, company_id, name, description, member_ids, created_by, created_at, updated_at)
         VALUES ($1,$2,$3,$4,$5,$6,$7,$7) ON CONFLICT (group_id) DO NOTHING`,
        [p.groupId, p.companyId, p.name, p.description, p.memberIds, actor, at],
      );
    },
    UserGroupUpdated: async (tx, event, at) => {
      const p = event.payload;
      await tx.query(
        `UPDATE tmt_user_groups SET name = coalesce($2, name), description = coalesce($3, description), updated_at = $4 WHERE group_id = $1`,
        [p.groupId, p.name ?? null, p.description ?? null, at],
      );
    },
    UserGroupMemberAdded: async (tx, event, at) => {
      await tx.query(
        `UPDATE tmt_user_groups SET member_ids = array_append(member_ids, $2), updated_at = $3 WHERE group_id = $1 AND NOT ($2 = ANY(member_ids))`,
        [event.payload.groupId, event.payload.userId, at],
      );
    },
    UserGroupMemberRemoved: async (tx, event, at) => {
      await tx.query(`UPDATE tmt_user_groups SET member_ids = array_remove(member_ids, $2), updated_at = $3 WHERE group_id = $1`, [
        event.payload.groupId,
        event.payload.userId,
        at,
      ]);
    },
    UserGroupDeleted: (tx, event) => tx.query(`DELETE FROM tmt_user_groups WHERE group_id = $1`, [event.payload.groupId]),
  }, userGroupEvents),
};
