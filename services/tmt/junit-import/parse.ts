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
  /** The failure's, error's or skip's type, message and body as one text, or null. */
  details: string | null;
}

/** At most this many `<testcase>` elements in one report. */
export const MAX_JUNIT_CASES = 10_000;
/** The longest `details` kept (a result's notes hold at most this much). */
export const MAX_DETAILS = 10_000;
const ROOTS = new Set(['testsuites', 'testsuite']);
const OUTCOMES: Record<string, Exclude<JunitOutcome, 'passed'>> = { failure: 'failed', error: 'error', skipped: 'skipped' };

/** `time="1.5"` (some reporters write `1,234.5`) as whole milliseconds. */
function durationOf(time: string | undefined): number | null {
  if (time === undefined) return null;
  const seconds = Number(time.replaceAll(',', ''));
  return Number.isFinite(seconds) && seconds >= 0 ? Math.min(Math.round(seconds * 1000), 2_147_483_647) : null;
}

function detailsOf(outcome: JunitOutcome, attrs: Record<string, string>, body: string): string | null {
  const head = [attrs.type, attrs.message].filter((x) => x && x.trim()).join(': ');
  const text = [outcome === 'error' ? `Error${head ? `: ${head}` : ''}` : head, body.trim()].filter(Boolean).join('\n\n');
  if (!text) return null;
  return text.length > MAX_DETAILS ? `${text.slice(0, MAX_DETAILS - 1)}…` : text;
}

const invalidXml = (line: number, column: number, reason: string) =>
  new AppError('INVALID_XML', `The body is not well-formed XML: line ${line}, column ${column}: ${reason}`, { details: [{ path: 'body', message: reason, line, column }] });

interface OpenCase {
  classname: string;
  name: string;
  durationMs: number | null;
  outcome: JunitOutcome;
  attrs: Record<string, string>;
  body: string;
}

/**
 * The `<testcase>` elements of a JUnit XML report, in document order, at any depth of nested
 * `<testsuite>`s under a `<testsuites>` or `<testsuite>` root. `<properties>`, `<system-out>` and
 * anything else are read past. 400 `INVALID_XML` (naming the line and column) for a document that is
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
      open = { classname: (a.classname ?? suites.at(-1) ?? '').trim(), name: a.name.trim(), durationMs: durationOf(a.time), outcome: 'passed', attrs: {}, body: '' };
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
    if (open && detailDepth !== -1 && stack.length >= detailDepth) open.body += t;
  };
  parser.ontext = text;
  parser.oncdata = text;
  parser.onclosetag = (name) => {
    if (stack.length === detailDepth) detailDepth = -1;
    stack.pop();
    if (name === 'testsuite') suites.pop();
    else if (name === 'testcase' && open && !stack.includes('testcase')) {
      cases.push({ classname: open.classname, name: open.name, outcome: open.outcome, durationMs: open.durationMs, details: detailsOf(open.outcome, open.attrs, open.body) });
      open = null;
    }
  };
  parser.write(xml.startsWith('\uFEFF') ? xml.slice(1) : xml).close();
  if (root === null) throw invalidXml(1, 1, 'no root element');
  if (cases.length === 0) throw new AppError('JUNIT_EMPTY', 'The report holds no <testcase>');
  return cases;
}
