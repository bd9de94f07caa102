import sax from 'sax';
import { AppError } from '#shared/errors.js';

/** What a `<testcase>` ended as: no child element, `<failure>`, `<error>` or `<skipped>`. */
export type JunitOutcome = 'passed' | 'failed' | 'error' | 'skipped';

/** One `<testcase>` of a JUnit report. */
export interface JunitCase {
  classname: string;
  name: string;
  outcome: JunitOutcome;
  /** `time` (seconds) in milliseconds, or null when absent or not a number. */
  durationMs: number | null;
  /** The failure's, error's or skip's type, message and body as one text (the message once), or null. */
  details: string | null;
  /** The device session that ran the test, as its `<properties>` or its `<system-out>` name it, or null. */
  deviceSessionId: string | null;
}

/** At most this many `<testcase>` elements in one report. */
export const MAX_JUNIT_CASES = 10_000;
/** The longest `details` kept (a result's notes hold at most this much). */
export const MAX_DETAILS = 10_000;
const ROOTS = new Set(['testsuites', 'testsuite']);
const OUTPUTS = new Set(['system-out', 'system-err']);
const OUTCOMES: Record<string, Exclude<JunitOutcome, 'passed'>> = { failure: 'failed', error: 'error', skipped: 'skipped' };

/** `time="1.5"` (some reporters write `1,234.5`) as whole milliseconds. */
function durationOf(time: string | undefined): number | null {
  if (time === undefined) return null;
  const seconds = Number(time.replaceAll(',', ''));
  return Number.isFinite(seconds) && seconds >= 0 ? Math.min(Math.round(seconds * 1000), 2_147_483_647) : null;
}

/**
 * The notes of a failure: `type: message` and the body (the stack). Most runners (vitest, Playwright
 * Test) repeat the message at the top of the body; then the body alone says it, once.
 */
function detailsOf(outcome: JunitOutcome, attrs: Record<string, string>, body: string): string | null {
  const stack = body.trim();
  const message = attrs.message?.trim();
  const repeated = !!message && stack.includes(message);
  const head = repeated ? '' : [attrs.type, message].filter((x) => x && x.trim()).join(': ');
  const text = [outcome === 'error' ? `Error${head ? `: ${head}` : ''}` : head, stack].filter(Boolean).join('\n\n');
  if (!text) return null;
  return text.length > MAX_DETAILS ? `${text.slice(0, MAX_DETAILS - 1)}…` : text;
}

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
/** A device session's page or API path (`…/sessions/<id>`, the replay link the clients print), not a test session's. */
const SESSION_LINK = new RegExp(`/sessions/(${UUID})(?![0-9a-f-])`, 'i');
const BARE_ID = new RegExp(`^(${UUID})$`, 'i');
/** Properties (Playwright annotations, reporter options) that name the device session of a test. */
const SESSION_PROPERTIES = new Set(['df.session', 'df.sessionid', 'qa-platform.session']);

/** The device session a property names: a known name with an id or a link, or any value that is a link. */
function sessionOfProperty(name: string, value: string): string | null {
  const v = value.trim();
  const known = SESSION_PROPERTIES.has(name.trim().toLowerCase());
  const id = (known ? BARE_ID.exec(v)?.[1] : undefined) ?? SESSION_LINK.exec(v)?.[1];
  return id ? id.toLowerCase() : null;
}

const sessionOfText = (text: string): string | null => SESSION_LINK.exec(text)?.[1]?.toLowerCase() ?? null;

const invalidXml = (line: number, column: number, reason: string) =>
  new AppError('INVALID_XML', `The body is not well-formed XML: line ${line}, column ${column}: ${reason}`, { details: [{ path: 'body', message: reason, line, column }] });

interface OpenCase {
  classname: string;
  name: string;
  durationMs: number | null;
  outcome: JunitOutcome;
  attrs: Record<string, string>;
  body: string;
  /** What `<system-out>` and `<system-err>` printed, searched for a device session's link at the end. */
  output: string;
  propertySession: string | null;
}

/**
 * The `<testcase>` elements of a JUnit XML report, in document order, at any depth of nested
 * `<testsuite>`s under a `<testsuites>` or `<testsuite>` root. A testcase's `<properties>`,
 * `<system-out>` and `<system-err>` are searched for its device session; anything else is read past. 400 `INVALID_XML` (naming the line and column) for a document that is
 * not well-formed, `NOT_JUNIT` for one whose root or testcases are not JUnit's, `JUNIT_EMPTY` for a
 * report without testcases; 413 past `MAX_JUNIT_CASES`.
 */
export function parseJunit(xml: string): JunitCase[] {
  const parser = sax.parser(true, { position: true });
  const cases: JunitCase[] = [];
  const suites: string[] = [];
  const stack: string[] = [];
  let root: string | null = null;
  let open: OpenCase | null = null;
  // The depth of the element of `open` whose text is its details: the first failure, error or skip.
  let detailDepth = -1;
  let propertyName = '';
  const where = () => ({ line: parser.line + 1, column: Math.max(parser.column, 1) });

  parser.onerror = (error) => {
    const { line, column } = where();
    throw invalidXml(line, column, error.message.split('\n')[0] ?? 'malformed');
  };
  parser.onopentag = (tag) => {
    const { line, column } = where();
    // Some runners write several <testsuite> roots into one file: each is read, as under a <testsuites>.
    if (stack.length === 0) {
      if (!ROOTS.has(tag.name)) throw new AppError('NOT_JUNIT', `The root element is <${tag.name}>, not JUnit's <testsuites> or <testsuite>`);
      root = tag.name;
    }
    stack.push(tag.name);
    const a = tag.attributes;
    if (tag.name === 'testsuite') suites.push(a.name ?? '');
    else if (tag.name === 'testcase' && !open) {
      if (!a.name?.trim()) throw new AppError('NOT_JUNIT', `The <testcase> at line ${line} has no name attribute`);
      if (cases.length === MAX_JUNIT_CASES) throw new AppError('PAYLOAD_TOO_LARGE', `A report may hold at most ${MAX_JUNIT_CASES} testcases`);
      open = { classname: (a.classname ?? suites.at(-1) ?? '').trim(), name: a.name.trim(), durationMs: durationOf(a.time), outcome: 'passed', attrs: {}, body: '', output: '', propertySession: null };
    } else if (open && tag.name === 'property' && stack.at(-2) === 'properties') {
      propertyName = a.name ?? '';
      open.propertySession ??= sessionOfProperty(propertyName, a.value ?? '');
    } else if (open && stack.at(-2) === 'testcase' && tag.name in OUTCOMES) {
      const outcome = OUTCOMES[tag.name]!;
      // A failure or an error outranks a skip; the first of them is the one kept.
      if (open.outcome === 'passed' || (open.outcome === 'skipped' && outcome !== 'skipped')) {
        Object.assign(open, { outcome, attrs: a, body: '' });
        detailDepth = stack.length;
      }
    }
  };
  const text = (t: string) => {
    if (!open) return;
    if (detailDepth !== -1 && stack.length >= detailDepth) open.body += t;
    else if (OUTPUTS.has(stack.at(-1) ?? '')) open.output += t;
    // A <property> may hold its value as text rather than as `value`.
    else if (stack.at(-1) === 'property') open.propertySession ??= sessionOfProperty(propertyName, t);
  };
  parser.ontext = text;
  parser.oncdata = text;
  parser.onclosetag = (name) => {
    if (stack.length === detailDepth) detailDepth = -1;
    stack.pop();
    if (name === 'testsuite') suites.pop();
    else if (name === 'testcase' && open && !stack.includes('testcase')) {
      cases.push({
        classname: open.classname,
        name: open.name,
        outcome: open.outcome,
        durationMs: open.durationMs,
        details: detailsOf(open.outcome, open.attrs, open.body),
        deviceSessionId: open.propertySession ?? sessionOfText(open.output),
      });
      open = null;
    }
  };
  parser.write(xml.startsWith('\uFEFF') ? xml.slice(1) : xml).close();
  if (root === null) throw invalidXml(1, 1, 'no root element');
  if (cases.length === 0) throw new AppError('JUNIT_EMPTY', 'The report holds no <testcase>');
  return cases;
}
