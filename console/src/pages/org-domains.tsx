import { useQuery, useQueryClient } from '@tanstack/preact-query';
import { api } from '../api';
import { ConfirmButton, ErrorNote, Field, FormCard, QueryTable, useActionThen } from '../ui';

/** An e-mail domain as `GET /api/v1/domains` lists it: the TXT record that proves it, and when it was proven. */
interface EmailDomain {
  domain: string;
  verification: { type: 'dns-txt'; name: string; value: string };
  verifiedAt: string | null;
}

/** Verify (the resolver's answer when it fails) and remove, for one domain. */
function DomainActions({ domain, onDone }: { domain: EmailDomain; onDone: () => Promise<unknown> }) {
  const verify = useActionThen(onDone);
  const remove = useActionThen(onDone);
  const path = `/api/v1/domains/${encodeURIComponent(domain.domain)}`;
  return (
    <div class="row">
      {domain.verifiedAt === null ? (
        <button type="button" disabled={verify.busy} aria-label={`Verify ${domain.domain}`} onClick={() => verify.run(() => api(`${path}/verify`, { method: 'POST', body: {} }))}>
          Verify
        </button>
      ) : null}
      <ConfirmButton
        label={`Confirm removing ${domain.domain}`} yes="Yes, remove" buttonLabel={`Remove ${domain.domain}`}
        question="Remove? Its sign-in providers stop being required and offered for its addresses."
        onYes={() => remove.run(() => api(path, { method: 'DELETE' }))}
      >
        Remove
      </ConfirmButton>
      <ErrorNote error={verify.error ?? remove.error} />
    </div>
  );
}

/**
 * The company's e-mail domains (USER_ADMIN_MANAGE): claim one, publish the TXT record shown, verify it.
 * Only verified domains make sign-in providers required and offered for their addresses.
 */
export function Domains() {
  const qc = useQueryClient();
  const domains = useQuery({ queryKey: ['domains'], queryFn: () => api<EmailDomain[]>('/api/v1/domains') });
  const reload = () => qc.invalidateQueries({ queryKey: ['domains'] });
  return (
    <div class="stack">
      <p class="muted">
        A domain proven here is your company's: only your sign-in providers can be required or offered for its addresses, and no other
        company can invite, provision or sign in people there. To prove one, publish its TXT record in your DNS, then verify.
      </p>
      <FormCard
        title="Claim a domain" submit="Claim" resetOnSuccess
        onSubmit={async (d) => {
          await api<EmailDomain>('/api/v1/domains', { method: 'POST', body: { domain: String(d.get('domain') ?? '').trim() } });
          await reload();
        }}
      >
        <Field label="Domain" name="domain" required maxLength={253} placeholder="example.com" />
      </FormCard>
      <QueryTable
        query={domains} rows={(d) => d} rowKey={(d) => d.domain} caption="E-mail domains" empty="No domain yet."
        columns={[
          { header: 'Domain', cell: (d) => d.domain },
          {
            header: 'TXT record to publish',
            cell: (d) => (
              <span>
                <code>{d.verification.name}</code> = <code>{d.verification.value}</code>
              </span>
            ),
          },
          { header: 'Verified', cell: (d) => (d.verifiedAt ? new Date(d.verifiedAt).toLocaleString() : <span class="muted">not yet</span>) },
          { header: 'Actions', cell: (d) => <DomainActions domain={d} onDone={reload} /> },
        ]}
      />
    </div>
  );
}
