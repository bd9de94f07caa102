import { useQuery, useQueryClient } from '@tanstack/preact-query';
import { useState } from 'preact/hooks';
import type { Schemas } from '@qa-platform/client';
import { api } from '../api';
import { useSession } from '../session-context';
import { ErrorNote, Loading, useAction, withFields } from '../ui';

type SessionDefaults = Schemas['DfSessionDefaults'];

/**
 * The device-testing recording settings of the workspace signed in to (its session defaults): whether
 * sessions record (a video where the host encodes one), and how many days videos are kept.
 */
export function WorkspaceRecording({ workspaceName }: { workspaceName: string }) {
  const { can } = useSession();
  const qc = useQueryClient();
  const q = useQuery({ queryKey: ['df-session-defaults'], queryFn: () => api<SessionDefaults>('/df/api/settings/session-defaults') });
  const action = useAction();
  const [saved, setSaved] = useState('');
  if (q.isLoading) return <Loading />;
  if (q.error || !q.data) return <ErrorNote error={q.error} />;
  const current = q.data;
  const editable = can('df:settings:manage');
  return (
    <form
      class="stack"
      aria-label={`Session recording of ${workspaceName}`}
      onSubmit={withFields((d) => {
        const days = String(d.get('videoRetentionDays') ?? '').trim();
        const body = { ...current, recordByDefault: d.get('recordByDefault') === 'on', recordAutomation: d.get('recordAutomation') === 'on', videoRetentionDays: days === '' ? null : Number(days) };
        setSaved('');
        void action.run(async () => {
          qc.setQueryData(['df-session-defaults'], await api<SessionDefaults>('/df/api/settings/session-defaults', { method: 'PUT', body }));
          setSaved('Recording settings saved.');
        });
      })}
    >
      <fieldset class="stack" disabled={!editable}>
        <legend>Session recording</legend>
        <label class="check">
          <input type="checkbox" name="recordByDefault" defaultChecked={current.recordByDefault} /> Record every session from its start
        </label>
        <label class="check">
          <input type="checkbox" name="recordAutomation" defaultChecked={current.recordAutomation} /> Record automation sessions (WebDriver; <code>df:recordVideo</code> decides per session)
        </label>
        <label>
          Keep session videos for (days; empty: until the session is deleted)
          <input type="number" name="videoRetentionDays" min={1} max={3650} step={1} defaultValue={current.videoRetentionDays === null ? '' : String(current.videoRetentionDays)} />
        </label>
      </fieldset>
      {editable ? <button type="submit">Save the recording settings</button> : null}
      <ErrorNote error={action.error} />
      {saved ? (
        <span class="ok small" role="status">
          {saved}
        </span>
      ) : null}
    </form>
  );
}
