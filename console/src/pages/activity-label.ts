import type { SessionActivity as ActivityEntry } from '@qa-platform/client';

export type { ActivityEntry };

const CONTROL: Record<string, string> = {
  tap: 'Tap',
  longPress: 'Long press',
  swipe: 'Swipe',
  pinch: 'Pinch',
  home: 'Home',
  back: 'Back',
};

const text = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : '');

/** What happened, in words: "Tap", "Text typed (5 characters)", "Opened https://…", "Recording stopped". */
export function describeActivity(a: Pick<ActivityEntry, 'kind' | 'detail'>): string {
  const d = a.detail ?? {};
  const action = text(d.action);
  if (CONTROL[action]) return CONTROL[action]!;
  switch (action) {
    case 'text':
      return typeof d.characters === 'number' ? `Text typed (${d.characters} characters)` : 'Text typed';
    case 'key':
      return `Key ${text(d.key)}`.trim();
    case 'rotate':
      return `Rotated to ${text(d.orientation)}`;
    case 'openUrl':
      return `Opened ${text(d.url)}`.trim();
  }
  if (action) return action;
  switch (a.kind) {
    case 'screenshot':
      return 'Screenshot';
    case 'note':
      return 'Notes changed';
    case 'recording':
      return `Recording ${text(d.event)}`.trim();
    case 'lifecycle':
      return `Session ${text(d.event)}`.trim();
    case 'custom':
      return text(d.message) || 'Custom step';
    default:
      return a.kind;
  }
}
