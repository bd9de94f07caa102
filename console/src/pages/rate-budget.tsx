import { useQueryClient } from '@tanstack/preact-query';
import { api } from '../api';
import { ActionForm } from '../ui';

/** What a credential's budget reads as in a list: its own, or the deployment's default. */
export const budgetText = (rateLimit: number | null | undefined): string => (rateLimit ? `${rateLimit.toLocaleString('en')} / window` : 'default');

/** The budget field of a new credential's form: empty keeps the default. */
export function BudgetField() {
  return (
    <label class="field">
      <span>Rate budget</span>
      <input type="number" name="rateLimit" min={1} max={1000000} step={1} inputMode="numeric" placeholder="default" />
      <small class="muted">Requests per rate-limit window (a minute unless configured otherwise), apart from your own; empty: the default</small>
    </label>
  );
}

/** The form's budget as the API takes it: a whole number, or null for the default. */
export function budgetOf(data: FormData): number | null {
  const raw = String(data.get('rateLimit') ?? '').trim();
  return raw === '' ? null : Number(raw);
}

/** Sets one credential's own budget (`PATCH`), for those who manage the workspace's credentials. */
export function BudgetEditor(props: { path: string; name: string; rateLimit: number | null | undefined; queryKey: string }) {
  const qc = useQueryClient();
  return (
    <ActionForm
      class="row"
      submit="Set"
      label={`Rate budget of ${props.name}`}
      onSubmit={async (d) => {
        await api(props.path, { method: 'PATCH', body: { rateLimit: budgetOf(d) } });
        await qc.invalidateQueries({ queryKey: [props.queryKey] });
      }}
    >
      <label class="field">
        <span class="sr-only">Rate budget of {props.name}</span>
        <input type="number" name="rateLimit" min={1} max={1000000} step={1} inputMode="numeric" placeholder="default" defaultValue={props.rateLimit ? String(props.rateLimit) : ''} />
      </label>
    </ActionForm>
  );
}
