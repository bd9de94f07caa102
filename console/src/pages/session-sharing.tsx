import type { ComponentChildren } from 'preact';
import { useQuery, useQueryClient } from '@tanstack/preact-query';
import { useEffect, useState } from 'preact/hooks';
import type { SessionInvitation as Invitation } from '@qa-platform/client';
import { api } from '../api';
import { sessionInviteLink } from '../router';
import { Confirm, Empty, ErrorNote, formatClock, formatTime, Loading, useAction, withFields } from '../ui';
import type { Viewer } from './session-live';

/** Which confirmation is open (`viewer:…`, `inv:…`, `link:…`), one at a time across the pane. */
interface Confirming {
  confirming: string | null;
  setConfirming: (key: string | null) => void;
}

/** A row's risky button, or its confirmation while `confirming` names the row. */
function ConfirmedButton(props: Confirming & { rowKey: string; label: string; question: string; yes: string; buttonLabel: string; button: string; onYes: () => unknown }) {
  return props.confirming === props.rowKey ? (
    <Confirm label={props.label} question={props.question} yes={props.yes} onYes={props.onYes} onNo={() => props.setConfirming(null)} />
  ) : (
    <button type="button" class="danger small-button" aria-label={props.buttonLabel} onClick={() => props.setConfirming(props.rowKey)}>
      {props.button}
    </button>
  );
}

/**
 * Viewers and sharing: who watches now, and — for whoever may share (the owner with df:session:share,
 * or df:session:manage) — disconnecting a viewer, inviting, making links, and revoking either.
 */
export function Sharing({ id, viewers, me, mayShare, active }: { id: string; viewers: Viewer[]; me: number | undefined; mayShare: boolean; active: boolean }) {
  const qc = useQueryClient();
  const [confirming, setConfirming] = useState<string | null>(null);
  const action = useAction();
  const refresh = () => Promise.all([qc.invalidateQueries({ queryKey: ['invitations', id] }), qc.invalidateQueries({ queryKey: ['invitation-links', id] })]);
  // Someone joining or leaving is when a link's use count or an invitation changes: read them again then.
  const presence = viewers.map((v) => v.userId).join(',');
  useEffect(() => {
    if (mayShare) void refresh();
  }, [presence, mayShare]);
  const confirm = { confirming, setConfirming };
  const revoke = (inv: Invitation) =>
    action.run(async () => {
      await api(inv.type === 'link' ? `/df/api/sessions/${id}/invitations/links/${inv.id}` : `/df/api/sessions/${id}/invitations/${inv.id}`, { method: 'DELETE' });
      setConfirming(null);
      await refresh();
    });
  const disconnect = (v: Viewer) =>
    action.run(async () => {
      await api(`/df/api/sessions/${id}/viewers/${v.userId}`, { method: 'DELETE' });
      setConfirming(null);
    });
  return (
    <div class="stack">
      <h2>Watching now</h2>
      {viewers.length === 0 ? <Empty>Nobody is connected.</Empty> : null}
      <ul class="viewers" aria-label="Viewers">
        {viewers.map((v) => (
          <li>
            {v.name} <span class="badge">{v.access}</span> <span class="muted small">since {formatClock(v.connectedAt)}</span>
            {mayShare && v.userId !== me ? (
              <ConfirmedButton
                {...confirm}
                rowKey={`viewer:${v.userId}`}
                label={`Confirm disconnecting ${v.name}`}
                question="Disconnect? Their access to this session ends."
                yes="Yes, disconnect"
                onYes={() => disconnect(v)}
                buttonLabel={`Disconnect ${v.name}`}
                button="Disconnect"
              />
            ) : null}
          </li>
        ))}
      </ul>
      <ErrorNote error={action.error} />
      {mayShare ? <Invitations id={id} confirm={confirm} revoke={revoke} /> : null}
      {mayShare && active ? <Share id={id} refresh={refresh} /> : null}
    </div>
  );
}

/** The invitations of coworkers and the open links, each with its revoking. */
function Invitations({ id, confirm, revoke }: { id: string; confirm: Confirming; revoke: (inv: Invitation) => unknown }) {
  const invitations = useQuery({ queryKey: ['invitations', id], queryFn: () => api<Invitation[]>(`/df/api/sessions/${id}/invitations`) });
  const links = useQuery({ queryKey: ['invitation-links', id], queryFn: () => api<Invitation[]>(`/df/api/sessions/${id}/invitations/links`) });
  const linkName = (l: Invitation) => `link made ${formatTime(l.createdAt)}`;
  return (
    <>
      <h2>Invitations</h2>
      <InvitationList query={invitations} label="Invitations" empty="No coworker is invited.">
        {(inv) => (
          <>
            {inv.email ?? `user #${inv.userId}`} <span class="badge">{inv.access}</span> <span class="muted small">until {formatTime(inv.expiresAt)}</span>
            <ConfirmedButton
              {...confirm}
              rowKey={`inv:${inv.id}`}
              label={`Confirm revoking the invitation of ${inv.email ?? inv.userId}`}
              question="Revoke? The access it gave ends."
              yes="Yes, revoke"
              onYes={() => revoke(inv)}
              buttonLabel={`Revoke the invitation of ${inv.email ?? inv.userId}`}
              button="Revoke"
            />
          </>
        )}
      </InvitationList>
      <h2>Shareable links</h2>
      <InvitationList query={links} label="Open links" empty="No link is open.">
        {(l) => (
          <>
            {linkName(l)} <span class="badge">{l.access}</span>{' '}
            <span class="muted small">
              {l.uses}
              {l.maxUses ? ` of ${l.maxUses}` : ''} used · until {formatTime(l.expiresAt)}
            </span>
            <ConfirmedButton
              {...confirm}
              rowKey={`link:${l.id}`}
              label={`Confirm revoking the ${linkName(l)}`}
              question="Revoke? Nobody can use it any more, and the access it gave ends."
              yes="Yes, revoke"
              onYes={() => revoke(l)}
              buttonLabel={`Revoke the ${linkName(l)}`}
              button="Revoke"
            />
          </>
        )}
      </InvitationList>
    </>
  );
}

function InvitationList(props: {
  query: { isLoading: boolean; error: unknown; data: Invitation[] | undefined };
  label: string;
  empty: string;
  children: (inv: Invitation) => ComponentChildren;
}) {
  const { query } = props;
  return (
    <>
      {query.isLoading ? <Loading /> : null}
      <ErrorNote error={query.error} />
      {query.data && query.data.length === 0 ? <Empty>{props.empty}</Empty> : null}
      {query.data && query.data.length > 0 ? (
        <ul class="plain-list" aria-label={props.label}>
          {query.data.map((inv) => (
            <li>{props.children(inv)}</li>
          ))}
        </ul>
      ) : null}
    </>
  );
}

/** Sharing the session: the access given, an invitation by e-mail, or a link shown once. */
function Share({ id, refresh }: { id: string; refresh: () => Promise<unknown> }) {
  const [created, setCreated] = useState<{ url: string; access: string } | null>(null);
  const [message, setMessage] = useState<unknown>(null);
  const [access, setAccess] = useState<'view' | 'control'>('view');
  const invite = async (body: Record<string, unknown>) => {
    setMessage(null);
    try {
      const inv = await api<{ token?: string; access: string }>(`/df/api/sessions/${id}/invitations`, { method: 'POST', body: { ...body, access } });
      // The link opens this console's own accepting page, at the address the person uses now.
      if (inv.token) setCreated({ url: sessionInviteLink(inv.token), access: inv.access });
      else setMessage(`Invitation mailed (${inv.access}).`);
      await refresh();
    } catch (err) {
      setMessage(err);
    }
  };
  return (
    <>
      <h2>Share</h2>
      <fieldset class="row">
        <legend>Access</legend>
        <label class="check">
          <input type="radio" name="access" checked={access === 'view'} onChange={() => setAccess('view')} /> View
        </label>
        <label class="check">
          <input type="radio" name="access" checked={access === 'control'} onChange={() => setAccess('control')} /> Control
        </label>
      </fieldset>
      <form
        class="row"
        onSubmit={withFields((d) => {
          const email = String(d.get('email') ?? '').trim();
          if (email) void invite({ email });
        })}
      >
        <label class="field grow">
          <span>Invite a coworker by e-mail</span>
          <input type="email" name="email" required />
        </label>
        <button type="submit">Invite</button>
      </form>
      <button type="button" onClick={() => invite({ link: true })}>
        Make a link
      </button>
      {created ? (
        <div class="card">
          <label class="field">
            <span>Shareable link ({created.access}); shown once</span>
            <input readOnly value={created.url} onFocus={(e) => (e.target as HTMLInputElement).select()} aria-label="Shareable link" />
          </label>
          <button
            type="button"
            onClick={async () => {
              try {
                await navigator.clipboard.writeText(created.url);
                setMessage('Link copied.');
              } catch {
                setMessage('Copying was refused by the browser; select the link and copy it yourself.');
              }
            }}
          >
            Copy
          </button>
        </div>
      ) : null}
      {typeof message === 'string' ? <p class="ok" role="status">{message}</p> : <ErrorNote error={message} />}
    </>
  );
}
