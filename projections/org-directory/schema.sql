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
  password_hash text NOT NULL,
  status text NOT NULL,
  is_admin boolean NOT NULL,
  roles text[] NOT NULL,
  created_at timestamptz NOT NULL,
  password_changed_at timestamptz
);
CREATE UNIQUE INDEX IF NOT EXISTS org_users_email ON org_users (lower(email));
CREATE UNIQUE INDEX IF NOT EXISTS org_users_username ON org_users (lower(username));
CREATE INDEX IF NOT EXISTS org_users_company ON org_users (company_id);
CREATE TABLE IF NOT EXISTS org_workspaces (
  id integer PRIMARY KEY,
  company_id integer NOT NULL,
  name text NOT NULL,
  description text NOT NULL,
  settings jsonb NOT NULL,
  modules text[] NOT NULL,
  archived boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS org_workspaces_company ON org_workspaces (company_id);
CREATE TABLE IF NOT EXISTS org_workspace_user_access (
  workspace_id integer NOT NULL,
  user_id integer NOT NULL,
  PRIMARY KEY (workspace_id, user_id)
);
