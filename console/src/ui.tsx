import type { ComponentChildren, JSX } from 'preact';
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { ApiError } from './api';

/** Times in the person's own zone and language. */
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const timeOnly = new Intl.DateTimeFormat(undefined, { timeStyle: 'medium' });
export const formatTime = (iso: string | null | undefined) => (iso ? dateTime.format(new Date(iso)) : '—');
export const formatClock = (iso: string | null | undefined) => (iso ? timeOnly.format(new Date(iso)) : '—');

export const messageOf = (err: unknown) => (err instanceof ApiError || err instanceof Error ? err.message : String(err));

/**
 * Copying text to the clipboard: which item was copied last (its key); `command` shows a command as code
 * with its copy button (`label` names it for screen readers); `status` says it was copied, or shows the
 * browser's refusal naming `what` to select and copy by hand instead.
 */
export function useClipboard(what: string) {
  const [copied, setCopied] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const copy = async (key: string, text: string) => {
    setError(null);
    try {
      await navigator.clipboard.writeText(text);
      setCopied(key);
    } catch {
      setCopied(null);
      setError(new Error(`Copying was refused by the browser: select ${what} and copy it yourself.`));
    }
  };
  const command = (key: string, text: string, label: string) => (
    <div class="command">
      <code>{text}</code>
      <button type="button" onClick={() => void copy(key, text)}>
        {copied === key ? 'Copied' : 'Copy'}
        <span class="sr-only"> {label}</span>
      </button>
    </div>
  );
  const status = (
    <>
      <ErrorNote error={error} />
      {copied ? (
        <p class="sr-only" role="status">
          Copied to the clipboard
        </p>
      ) : null}
    </>
  );
  return { copied, command, status };
}

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

interface ActionFormProps {
  onSubmit: (data: FormData) => Promise<unknown>;
  submit: string;
  children: ComponentChildren;
  class?: string;
  label?: string;
  /** Empties the fields after each success (a form that sends one thing after another). */
  resetOnSuccess?: boolean;
}

/** A form whose submit runs an async action, shows progress and the error body's message. */
export function ActionForm(props: ActionFormProps) {
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

/**
 * A card holding one ActionForm under its heading (`h3` in a section that has an `h2` of its own):
 * the form is named by `label`, else by the heading. `after` follows the form in the card (what it made).
 */
export function FormCard(props: ActionFormProps & { title: string; heading?: 'h2' | 'h3'; after?: ComponentChildren }) {
  const { title, heading: Heading = 'h2', after, ...form } = props;
  return (
    <div class="card">
      <Heading>{title}</Heading>
      <ActionForm {...form} label={form.label ?? title} />
      {after}
    </div>
  );
}

/** A secret the server shows only once (a new token or key): what it is, and the value to copy. */
export function ShownOnce({ label, value, children }: { label: string; value: string; children: ComponentChildren }) {
  return (
    <div class="ok" role="status">
      <p>{children}</p>
      <p class="secret" aria-label={label}>
        {value}
      </p>
    </div>
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
  // While the yes runs, its button is disabled and a second press (a double click) does nothing: the
  // guard is a ref, as two clicks can arrive before the disabled state renders.
  const running = useRef(false);
  const [busy, setBusy] = useState(false);
  const yes = async () => {
    if (running.current) return;
    running.current = true;
    setBusy(true);
    try {
      await props.onYes();
    } finally {
      running.current = false;
      setBusy(false);
    }
  };
  const question = useId(); // The group is described by its question, read out with the group's name.
  return (
    <span role="group" aria-label={props.label} aria-describedby={props.question ? question : undefined} class="row confirm">
      {props.question ? <span id={question}>{props.question}</span> : null}
      <button type="button" class="danger" disabled={busy} aria-busy={busy} onClick={() => void yes()}>
        {props.yes}
      </button>
      <button type="button" onClick={props.onNo} autoFocus>
        {props.no ?? 'Keep it'}
      </button>
    </span>
  );
}

/**
 * A risky action behind a danger button: pressed, the button gives way to a Confirm whose yes runs
 * `onYes` (an action's `run`, which answers whether it succeeded: then the button comes back).
 */
export function ConfirmButton(props: { label: string; question?: string; yes: string; onYes: () => Promise<boolean>; buttonLabel?: string; children: ComponentChildren }) {
  const [asking, setAsking] = useState(false);
  if (asking) return <Confirm label={props.label} question={props.question} yes={props.yes} onYes={async () => (await props.onYes()) && setAsking(false)} onNo={() => setAsking(false)} />;
  return (
    <button type="button" class="danger" aria-label={props.buttonLabel} onClick={() => setAsking(true)}>
      {props.children}
    </button>
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
 * nothing came; without `empty`, nothing is shown), else `children` with the data.
 */
export function QueryList<T>(props: {
  query: { isLoading: boolean; error: unknown; data: T | undefined };
  isEmpty?: (data: T) => boolean;
  empty?: ComponentChildren;
  children: (data: T) => ComponentChildren;
}) {
  const { query } = props;
  if (query.isLoading) return <Loading />;
  if (query.error) return <ErrorNote error={query.error} />;
  if (query.data === undefined || props.isEmpty?.(query.data)) return props.empty === undefined ? null : <Empty>{props.empty}</Empty>;
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

/**
 * A query's rows as a DataTable, in QueryList's states: loading, its error, none (`empty`), else the
 * table of `rows(data)` and whatever `after(data)` adds below it (a pager).
 */
export function QueryTable<T, R>(props: {
  query: { isLoading: boolean; error: unknown; data: T | undefined };
  rows: (data: T) => readonly R[];
  empty: ComponentChildren;
  caption: string;
  columns: Column<R>[];
  rowKey?: (row: R) => string | number;
  after?: (data: T) => ComponentChildren;
}) {
  return (
    <QueryList query={props.query} isEmpty={(d) => props.rows(d).length === 0} empty={props.empty}>
      {(d) => (
        <>
          <DataTable caption={props.caption} rows={props.rows(d)} columns={props.columns} rowKey={props.rowKey} />
          {props.after?.(d)}
        </>
      )}
    </QueryList>
  );
}
