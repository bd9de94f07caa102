import type { ComponentChildren, JSX } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from './api';

/** Times in the person's own zone and language. */
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const timeOnly = new Intl.DateTimeFormat(undefined, { timeStyle: 'medium' });
export const formatTime = (iso: string | null | undefined) => (iso ? dateTime.format(new Date(iso)) : '—');
export const formatClock = (iso: string | null | undefined) => (iso ? timeOnly.format(new Date(iso)) : '—');

export const messageOf = (err: unknown) => (err instanceof ApiError || err instanceof Error ? err.message : String(err));

export function ErrorNote({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <p class="error" role="alert">
      {messageOf(error)}
    </p>
  );
}

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <p class="muted" role="status" aria-live="polite">
      {label}
    </p>
  );
}

export function Empty({ children }: { children: ComponentChildren }) {
  return <p class="empty">{children}</p>;
}

export function Field(props: { label: string; hint?: string } & JSX.InputHTMLAttributes<HTMLInputElement>) {
  const { label, hint, ...input } = props;
  return (
    <label class="field">
      <span>{label}</span>
      <input {...input} />
      {hint ? <small class="muted">{hint}</small> : null}
    </label>
  );
}

export function Select(props: { label: string; options: { value: string; label: string }[] } & JSX.HTMLAttributes<HTMLSelectElement> & { value?: string }) {
  const { label, options, ...select } = props;
  return (
    <label class="field">
      <span>{label}</span>
      <select {...select}>
        {options.map((o) => (
          <option value={o.value}>{o.label}</option>
        ))}
      </select>
    </label>
  );
}

/** A form's onSubmit: the page stays where it is, and `handle` gets the form's fields (and the form). */
export const withFields = (handle: (data: FormData, form: HTMLFormElement) => unknown) => (e: Event) => {
  e.preventDefault();
  const form = e.currentTarget as HTMLFormElement;
  void handle(new FormData(form), form);
};

/** A form whose submit runs an async action, shows progress and the error body's message. */
export function ActionForm(props: {
  onSubmit: (data: FormData) => Promise<unknown>;
  submit: string;
  children: ComponentChildren;
  class?: string;
  label?: string;
  /** Empties the fields after each success (a form that sends one thing after another). */
  resetOnSuccess?: boolean;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  return (
    <form
      class={props.class ?? 'stack'}
      aria-label={props.label}
      onSubmit={async (e) => {
        e.preventDefault();
        setBusy(true);
        setError(null);
        try {
          const form = e.currentTarget as HTMLFormElement;
          await props.onSubmit(new FormData(form));
          if (props.resetOnSuccess) form.reset();
        } catch (err) {
          setError(err);
        } finally {
          setBusy(false);
        }
      }}
    >
      {props.children}
      <ErrorNote error={error} />
      <button type="submit" class="primary" disabled={busy}>
        {busy ? 'Working…' : props.submit}
      </button>
    </form>
  );
}

export function Pager(props: { page: number; totalPages: number; total: number; onPage: (p: number) => void }) {
  return (
    <nav class="pager" aria-label="Pages">
      <button type="button" disabled={props.page <= 0} onClick={() => props.onPage(props.page - 1)}>
        Previous
      </button>
      <span>
        Page {props.totalPages === 0 ? 0 : props.page + 1} of {props.totalPages} · {props.total} in all
      </span>
      <button type="button" disabled={props.page + 1 >= props.totalPages} onClick={() => props.onPage(props.page + 1)}>
        Next
      </button>
    </nav>
  );
}

/**
 * An inline confirmation (no modal): the question, the risky button, and "keep it" — which takes the
 * focus when it opens, the safe choice when Enter is pressed by habit.
 */
export function Confirm(props: { label: string; question?: string; yes: string; no?: string; onYes: () => unknown; onNo: () => void }) {
  return (
    <span role="group" aria-label={props.label} class="row confirm">
      {props.question ? <span>{props.question}</span> : null}
      <button type="button" class="danger" onClick={() => void props.onYes()}>
        {props.yes}
      </button>
      <button type="button" onClick={props.onNo} autoFocus>
        {props.no ?? 'Keep it'}
      </button>
    </span>
  );
}

/** Runs an action, keeping its error for an ErrorNote; answers whether it succeeded. */
export function useAction(): { error: unknown; busy: boolean; run: (fn: () => Promise<unknown>) => Promise<boolean>; clear: () => void; fail: (err: unknown) => void } {
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  return {
    error,
    busy,
    clear: () => setError(null),
    /** Shows an error met outside `run`. */
    fail: setError,
    run: async (fn) => {
      setError(null);
      setBusy(true);
      try {
        await fn();
        return true;
      } catch (err) {
        setError(err);
        return false;
      } finally {
        setBusy(false);
      }
    },
  };
}

/** Like useAction, and after each action that succeeds, `then` (reading the lists it changed again). */
export function useActionThen(then: () => Promise<unknown>): ReturnType<typeof useAction> {
  const action = useAction();
  return {
    ...action,
    run: (fn) =>
      action.run(async () => {
        await fn();
        await then();
      }),
  };
}

/** A page this person may not open in this workspace: its title and what it needs. */
export function NotAllowed({ title, children }: { title: string; children: ComponentChildren }) {
  return (
    <section>
      <h1>{title}</h1>
      <p>{children}</p>
    </section>
  );
}

/**
 * A query's list in its states: loading, its error, nothing (`empty`, when `isEmpty` says so or
 * nothing came), else `children` with the data.
 */
export function QueryList<T>(props: {
  query: { isLoading: boolean; error: unknown; data: T | undefined };
  isEmpty: (data: T) => boolean;
  empty: ComponentChildren;
  children: (data: T) => ComponentChildren;
}) {
  const { query } = props;
  if (query.isLoading) return <Loading />;
  if (query.error) return <ErrorNote error={query.error} />;
  if (query.data === undefined || props.isEmpty(query.data)) return <Empty>{props.empty}</Empty>;
  return <>{props.children(query.data)}</>;
}

/** How long a booking lasts: a select named `minutes` (its value in minutes). */
export function DurationSelect(props: { label: string; choices: number[]; selected: number; autoFocus?: boolean }) {
  return (
    <label class="field">
      <span>{props.label}</span>
      <select name="minutes" autoFocus={props.autoFocus}>
        {props.choices.map((m) => (
          <option value={String(m)} selected={m === props.selected}>
            {m < 60 ? `${m} minutes` : `${m / 60} hour${m > 60 ? 's' : ''}`}
          </option>
        ))}
      </select>
    </label>
  );
}

/** One column of a DataTable: its header, its cell, and whether the header is for screen readers only. */
export interface Column<T> {
  header: string;
  cell: (row: T) => ComponentChildren;
  class?: string;
  hiddenHeader?: boolean;
}

/**
 * The console's list table: a caption for screen readers (which names the table for tests and
 * assistive technology), a header row, a row per item. Pages give columns, not markup.
 */
export function DataTable<T>({ caption, columns, rows, rowKey }: { caption: string; columns: Column<T>[]; rows: readonly T[]; rowKey?: (row: T) => string | number }) {
  // A table wider than the screen (a tablet in portrait) scrolls inside its box, not the page; while
  // it does, the box is a named region that takes keyboard focus, so the arrow keys can scroll it.
  const box = useRef<HTMLDivElement>(null);
  const [scrolls, setScrolls] = useState(false);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const measure = () => setScrolls(el.scrollWidth > el.clientWidth + 1);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    if (el.firstElementChild) observer.observe(el.firstElementChild);
    return () => observer.disconnect();
  }, []);
  return (
    <div class="table-wrap" ref={box} {...(scrolls ? { tabIndex: 0, role: 'region', 'aria-label': `${caption} (scrolls sideways)` } : {})}>
      <table>
        <caption class="sr-only">{caption}</caption>
        <thead>
          <tr>
            {columns.map((c) => (
              <th>{c.hiddenHeader ? <span class="sr-only">{c.header}</span> : c.header}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            // Keyed rows keep a row's open editor with its item when the list changes order.
            <tr key={rowKey?.(r)}>
              {columns.map((c) => (
                <td class={c.class}>{c.cell(r)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
