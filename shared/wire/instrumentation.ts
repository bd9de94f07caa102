import { z } from 'zod';

/** Instrumentation tests on the wire (`instrumentStart`, `instrumentPoll`): which tests, and what happened in a run. */

/** A Java class or member name (`com.example.LoginTest`, `Outer$Inner`). */
export const JavaName = z.string().max(500).regex(/^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*$/, 'a Java name');
/** One test: its class and method (a parameterised test's method may read `name[0]`). */
export const TestRef = z.object({ className: JavaName, methodName: z.string().max(255).regex(/^[A-Za-z_$][\w$]*(\[[\w ,.=-]*\])?$/, 'a test method name') });
export type TestRef = z.infer<typeof TestRef>;
/** How one test ended on the device: the runner's outcomes, and the two the agent decides (a hang, a crash). */
export const TestOutcome = z.enum(['passed', 'failed', 'errored', 'ignored', 'assumption', 'timedOut', 'crashed']);
export type TestOutcome = z.infer<typeof TestOutcome>;
/** What happened in an instrumentation run, numbered so a reader asks for what came after. */
export const InstrumentationEvent = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('started'), seq: z.number().int(), className: z.string(), methodName: z.string(), at: z.string() }),
  z.object({
    kind: z.literal('finished'),
    seq: z.number().int(),
    className: z.string(),
    methodName: z.string(),
    at: z.string(),
    outcome: TestOutcome,
    durationMs: z.number().nonnegative(),
    message: z.string().optional(),
    stack: z.string().optional(),
    /** The device log between the test's start and end. */
    logcat: z.array(z.string()),
    /** A failed test's screen, captured as its failure was reported (a PNG, base64); absent when none could be taken. */
    screenshot: z.string().optional(),
  }),
]);
export type InstrumentationEvent = z.infer<typeof InstrumentationEvent>;
