import { api } from '../api';
import { ConfirmButton, ErrorNote, useActionThen } from '../ui';

/**
 * "End session" in the toolbar: asks inline, like the console's other risky actions (the safe answer
 * has the focus), then `DELETE /df/api/sessions/{id}`; `onEnded` refreshes the page's session.
 */
export function EndSessionButton({ id, onEnded }: { id: string; onEnded: () => Promise<unknown> }) {
  const action = useActionThen(onEnded);
  return (
    <>
      <ConfirmButton label="Confirm ending the session" question="End this session? The device is released." yes="Yes, end the session" onYes={() => action.run(() => api(`/df/api/sessions/${id}`, { method: 'DELETE' }))}>
        End session
      </ConfirmButton>
      <ErrorNote error={action.error} />
    </>
  );
}

/** What the header says of this person's part in the session: ended, watching, in control. */
export function accessText(ended: boolean, access: 'view' | 'control' | null): string {
  if (ended) return 'ended';
  return access === 'view' ? 'watching (view only)' : access === 'control' ? 'in control' : 'connecting…';
}
