import { useState } from 'preact/hooks';
import { api } from '../api';
import { Confirm, ErrorNote, useAction } from '../ui';

/**
 * "End session" in the toolbar: asks inline, like the console's other risky actions (the safe answer
 * has the focus), then `DELETE /df/api/sessions/{id}`; `onEnded` refreshes the page's session.
 */
export function EndSessionButton({ id, onEnded }: { id: string; onEnded: () => Promise<unknown> }) {
  const [asking, setAsking] = useState(false);
  const action = useAction();
  return (
    <>
      {asking ? (
        <Confirm
          label="Confirm ending the session"
          question="End this session? The device is released."
          yes="Yes, end the session"
          onYes={() =>
            action.run(async () => {
              await api(`/df/api/sessions/${id}`, { method: 'DELETE' });
              setAsking(false);
              await onEnded();
            })
          }
          onNo={() => setAsking(false)}
        />
      ) : (
        <button type="button" class="danger" onClick={() => setAsking(true)}>
          End session
        </button>
      )}
      <ErrorNote error={action.error} />
    </>
  );
}

/** What the header says of this person's part in the session: ended, watching, in control. */
export function accessText(ended: boolean, access: 'view' | 'control' | null): string {
  if (ended) return 'ended';
  return access === 'view' ? 'watching (view only)' : access === 'control' ? 'in control' : 'connecting…';
}
