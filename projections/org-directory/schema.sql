CREATE TABLE IF NOT EXISTS org_companies (
  id integer PRIMARY KEY,
  name text NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE TABLE IF NOT EXISTS org_users (
  id integer PRIMARY KEY,
  company_id integer NOT NULL,
  email text NOT NULL,
  username text NOT NULL,
  name text NOT NULL,
  password_hash text,
  status text NOT NULL,
  is_admin boolean NOT NULL,
  roles text[] NOT NULL DEFAULT '{}',
  role_ids integer[] NOT NULL DEFAULT '{}',
  title text,
  phone text,
  image_key text,
  image_content_type text,
  created_at timestamptz NOT NULL,
  activated_at timestamptz,
  password_changed_at timestamptz,
  last_sign_in_at timestamptz
);
CREATE UNIQUE INDEX IF NOT EXISTS org_users_email ON org_users (lower(email));
CREATE UNIQUE INDEX IF NOT EXISTS org_users_username ON org_users (lower(username));
CREATE INDEX IF NOT EXISTS org_users_company ON org_users (company_id, id);
CREATE TABLE IF NOT EXISTS org_workspaces (
  id integer PRIMARY KEY,
  company_id integer NOT NULL,
  name text NOT NULL,
  description text NOT NULL,
  settings jsonb NOT NULL,
  modules text[] NOT NULL,
  archived boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL,
  updated_at timestamptz
);
CREATE INDEX IF NOT EXISTS org_workspaces_company ON org_workspaces (company_id);
CREATE TABLE IF NOT EXISTS org_workspace_user_access (
  workspace_id integer NOT NULL,
  user_id integer NOT NULL,
  PRIMARY KEY (workspace_id, user_id)
);
CREATE INDEX IF NOT EXISTS org_workspace_user_access_user ON org_workspace_user_access (user_id);
CREATE TABLE IF NOT EXISTS org_workspace_team_access (
  workspace_id integer NOT NULL,
  team_id integer NOT NULL,
  PRIMARY KEY (workspace_id, team_id)
);
CREATE INDEX IF NOT EXISTS org_workspace_team_access_team ON org_workspace_team_access (team_id);
CREATE TABLE IF NOT EXISTS org_workspace_member_roles (
  workspace_id integer NOT NULL,
  user_id integer NOT NULL,
  role_id integer NOT NULL,
  PRIMARY KEY (workspace_id, user_id, role_id)
);
CREATE TABLE IF NOT EXISTS org_roles (
  id integer PRIMARY KEY,
  company_id integer NOT NULL,
  name text NOT NULL,
  description text NOT NULL,
  permissions text[] NOT NULL,
  built_in boolean NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS org_roles_company ON org_roles (company_id);
CREATE TABLE IF NOT EXISTS org_teams (
  id integer PRIMARY KEY,
  company_id integer NOT NULL,
  name text NOT NULL,
  description text NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS org_teams_company ON org_teams (company_id);
CREATE TABLE IF NOT EXISTS org_team_members (
  team_id integer NOT NULL,
  user_id integer NOT NULL,
  PRIMARY KEY (team_id, user_id)
);
CREATE INDEX IF NOT EXISTS org_team_members_user ON org_team_members (user_id);
CREATE TABLE IF NOT EXISTS org_workspace_visits (
  user_id integer NOT NULL,
  workspace_id integer NOT NULL,
  visited_at timestamptz NOT NULL,
  -- Log position of the latest visit: orders visits made within the same millisecond.
  position bigint NOT NULL,
  PRIMARY KEY (user_id, workspace_id)
);
-- Version 1 created org_users and org_workspaces with fewer columns; a rebuild empties the tables
-- but keeps them, so bring their columns up to date.
ALTER TABLE org_users ALTER COLUMN password_hash DROP NOT NULL;
ALTER TABLE org_users ALTER COLUMN roles SET DEFAULT '{}';
ALTER TABLE org_users ADD COLUMN IF NOT EXISTS role_ids integer[] NOT NULL DEFAULT '{}';
ALTER TABLE org_users ADD COLUMN IF NOT EXISTS title text;
ALTER TABLE org_users ADD COLUMN IF NOT EXISTS phone text;
ALTER TABLE org_users ADD COLUMN IF NOT EXISTS image_key text;
ALTER TABLE org_users ADD COLUMN IF NOT EXISTS image_content_type text;
ALTER TABLE org_users ADD COLUMN IF NOT EXISTS activated_at timestamptz;
ALTER TABLE org_users ADD COLUMN IF NOT EXISTS last_sign_in_at timestamptz;
ALTER TABLE org_workspaces ADD COLUMN IF NOT EXISTS updated_at timestamptz;
