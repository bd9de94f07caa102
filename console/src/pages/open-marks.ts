/**
 * Performance marks of a session's start, from the click on "Start a session" to the first frame
 * painted: the page's own account of where the wait goes (`npm run bench -- --only=console` reads them).
 */
export const OPEN_MARKS = {
  open: 'df:open',
  created: 'df:session-created',
  socketOpen: 'df:socket-open',
  firstFrame: 'df:first-frame',
  firstPaint: 'df:first-paint',
} as const;

/** Marks `name` once per page load (the first session's start is what a tester waits for). */
export function markOnce(name: string): void {
  if (performance.getEntriesByName(name, 'mark').length === 0) performance.mark(name);
}
