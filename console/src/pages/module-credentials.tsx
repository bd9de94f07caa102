import { useQuery, useQueryClient } from '@tanstack/preact-query';
import { useState } from 'preact/hooks';
import type { Schemas } from '@qa-platform/client';
import { api, ApiError } from '../api';
import { useSession } from '../session-context';
import { DataTable, Empty, ErrorNote, Field, formatTime, FormCard, Loading, ShownOnce } from '../ui';
import { credentialActionsColumn, HoldBadge } from './credentials';

type DeviceKey = Schemas['DfApiKey'];
type HealthCheckKey = Schemas['HealthcheckApiKey'];
type TestEngine = Schemas['TestEngine'];

/** One row of a module's credentials as this page shows it. */
interface Credential {
  id: string;
  name: string;
  prefix: string;
  createdAt: string;
  needsApproval: boolean;
}

/** What differs between the modules' credentials: where they live, who manages them, what they are called. */
interface ModuleCredentialsOptions {
  id: string;
  title: string;
  /** The singular, as in "New health-check key". */
  one: string;
  permission: 'df:key:manage' | 'HEALTHCHECK_MANAGE' | 'AUTORUNNER_MANAGE';
  path: string;
  description: preact.ComponentChildren;
  list(): Promise<Credential[]>;
  create(name: string): Promise<{ name: string; value: string }>;
}

const text = (d: FormData, k: string) => String(d.get(k) ?? '').trim();

/**
 * A module's credentials of the workspace (device keys, health-check keys, test engines): made here, the value shown
 * once; held ones (made from a password sign-in where single sign-on is required) marked and approved
 * by a company administrator; revoked.
 */
function ModuleCredentials(o: ModuleCredentialsOptions) {
  const qc = useQueryClient();
  const manages = useSession().can(o.permission);
  const rows = useQuery({ queryKey: [o.id], enabled: manages, queryFn: o.list, retry: false });
  const [created, setCreated] = useState<{ name: string; value: string } | null>(null);
  const [error, setError] = useState<unknown>(null);
  // Not for a workspace without the module: nothing to make or approve there.
  if (!manages || (rows.error instanceof ApiError && rows.error.code === 'MODULE_NOT_ENABLED')) return null;
  return (
    <section class="stack" aria-labelledby={`${o.id}-title`}>
      <h2 id={`${o.id}-title`}>{o.title}</h2>
      <p class="muted" style="margin-top:0">
        {o.description}
      </p>
      <FormCard
        title={`New ${o.one}`} heading="h3" label={`New ${o.one}`} class="row" submit={`Create the ${o.one}`}
        after={created ? <ShownOnce label={`New ${o.one} value`} value={created.value}>The {o.one} <strong>{created.name}</strong>, shown only now: copy it.</ShownOnce> : null}
        onSubmit={async (d) => {
          setCreated(await o.create(text(d, 'name')));
          await qc.invalidateQueries({ queryKey: [o.id] });
        }}
      >
        <Field label={`${o.one[0]!.toUpperCase()}${o.one.slice(1)} name`} name="name" required />
      </FormCard>
      <ErrorNote error={rows.error ?? error} />
      {rows.isLoading ? <Loading /> : null}
      {rows.data && rows.data.length === 0 ? <Empty>No {o.one} yet.</Empty> : null}
      {rows.data && rows.data.length > 0 ? (
        <DataTable
          caption={o.title}
          rows={rows.data}
          columns={[
            { header: 'Name', cell: (k) => k.name },
            { header: 'Starts with', cell: (k) => <code>{k.prefix}…</code> },
            { header: 'Created', cell: (k) => formatTime(k.createdAt) },
            { header: 'Status', cell: (k) => <HoldBadge needsApproval={k.needsApproval} /> },
            credentialActionsColumn<Credential>({ path: o.path, queryKey: o.id, removeLabel: 'Revoke', onError: setError }),
          ]}
        />
      ) : null}
    </section>
  );
}

/** Device keys (`dfk_`, `X-Api-Key`) of the workspace: what runners of the device API use. */
export function DeviceKeys() {
  const path = '/df/api/keys';
  return (
    <ModuleCredentials
      id="device-keys" title="Device keys" one="device key" permission="df:key:manage" path={path}
      description={<>Keys sent as <code>X-Api-Key</code> to the device API and the WebDriver hub. An API key with the <code>devices</code> scope does the same and more.</>}
      list={async () => (await api<{ content: DeviceKey[] }>(path, { query: { page: 0, size: 100 } })).content.filter((k) => !k.revoked)}
      create={async (name) => {
        const made = await api<{ name: string; key: string }>(path, { method: 'POST', body: { name } });
        return { name: made.name, value: made.key };
      }}
    />
  );
}

/** Health-check API keys (`hck_`, `X-API-KEY`) of the workspace. */
export function HealthCheckKeys() {
  const path = '/healthcheck/api/v1/api-keys';
  return (
    <ModuleCredentials
      id="health-check-keys" title="Health-check keys" one="health-check key" permission="HEALTHCHECK_MANAGE" path={path}
      description={<>Keys sent as <code>X-API-KEY</code> to the health-check API, to manage and read checks (a check’s own push token is on the check).</>}
      list={async () => (await api<{ content: HealthCheckKey[] }>(path, { query: { page: 0, size: 100 } })).content.filter((k) => !k.revoked)}
      create={async (name) => {
        const made = await api<{ name: string; key: string }>(path, { method: 'POST', body: { name } });
        return { name: made.name, value: made.key };
      }}
    />
  );
}

/** Test engines (`aet_` tokens, `X-Engine-Token`) of the workspace. */
export function TestEngines() {
  const path = '/autorunner/api/v1/engines';
  return (
    <ModuleCredentials
      id="test-engines" title="Test engines" one="test engine" permission="AUTORUNNER_MANAGE" path={path}
      description={<>Engines that run automated tests and report their runs, each with its token sent as <code>X-Engine-Token</code>.</>}
      list={async () =>
        (await api<{ content: TestEngine[] }>(path, { query: { page: 0, size: 100 } })).content
          .filter((e) => !e.revoked)
          .map((e) => ({ id: e.id, name: e.name, prefix: e.tokenPrefix, createdAt: e.createdAt, needsApproval: e.needsApproval }))
      }
      create={async (name) => {
        const made = await api<{ name: string; token: string }>(path, { method: 'POST', body: { name } });
        return { name: made.name, value: made.token };
      }}
    />
  );
}
