/**
 * The platform's HTTP API as a typed client: the paths, parameters and answers of its OpenAPI
 * document (generated into ./schema.ts by `npm run client:generate`), a fetch client typed with them
 * (openapi-fetch) that sends the credentials and workspace header, and names for the shapes its
 * clients use (the web console and dfctl take their types from here).
 */
import createFetchClient, { type Client, type ClientOptions, type Middleware } from 'openapi-fetch';
import { retryingFetch, type RetryPolicy } from './retry.js';
import type { components, paths } from './schema.js';

export type { components, paths } from './schema.js';
export * from './runner.js';
export { retryAfterSeconds, retryingFetch, type RetryPolicy } from './retry.js';
export { SessionReport, type SessionReportOptions, type TestEvent } from './session-report.js';
export * from './video.js';

/** The named shapes of the document (`components.schemas`), as answers carry them. */
export type Schemas = components['schemas'];

type Method = 'get' | 'put' | 'post' | 'delete' | 'patch';
type OperationOf<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;
type JsonContent<R> = R extends { content: { 'application/json': infer B } } ? B : never;

/** The JSON body of an operation's answer with status `S` (200 unless named). */
export type Answer<P extends keyof paths, M extends Method = 'get', S extends number = 200> =
  OperationOf<P, M> extends { responses: infer R } ? (S extends keyof R ? JsonContent<R[S]> : never) : never;

/** The JSON body an operation takes. */
export type RequestBody<P extends keyof paths, M extends Method = 'post'> =
  OperationOf<P, M> extends { requestBody?: infer B } ? JsonContent<NonNullable<B>> : never;

/** The query parameters of an operation. */
export type Query<P extends keyof paths, M extends Method = 'get'> = OperationOf<P, M> extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

/** One page of a list (`page` 0-based): the paging of the device list's answer around other items. */
export type Page<T> = Omit<Answer<'/df/api/devices'>, 'content'> & { content: T[] };

/** An error answer: a stable `code`, a `message`, and per-field `details` for bad input. */
export type ErrorResponse = Schemas['ErrorResponse'];
/** One entry of an error answer's `details`. */
export type ErrorDetail = NonNullable<ErrorResponse['details']>[number];

// Organization (`/api/v1`)
export type TokenPair = Schemas['TokenPair'];
export type User = Schemas['User'];
export type Me = Answer<'/api/v1/users/me'>;
export type Workspace = Schemas['Workspace'];
export type AccessibleWorkspace = Answer<'/api/v1/workspaces/accessible'>[number];
export type WorkspaceMember = Schemas['WorkspaceMember'];
export type WorkspaceAccess = Schemas['WorkspaceAccess'];
export type Role = Schemas['Role'];
export type Team = Schemas['Team'];
export type CompanyAdministrator = Schemas['CompanyAdministrator'];
export type AuditEvent = Schemas['AuditEvent'];
export type AuditEventType = Schemas['AuditEventType'];
export type Permission = Answer<'/api/v1/permissions'>[number];
export type ApiKey = Schemas['V1ApiKey'];

// Device testing (`/df`)
export type Device = Schemas['DfDevice'];
export type DeviceFilterOptions = Schemas['DfDeviceFilterOptions'];
export type DeviceHealth = Schemas['DfDeviceHealth'];
export type DeviceHealthSamples = Schemas['DfDeviceHealthSamples'];
export type Session = Schemas['DfSession'];
export type SessionActivity = Schemas['DfSessionActivity'];
export type SessionInvitation = Schemas['DfSessionInvitation'];
export type DeviceApp = Schemas['DfDeviceApp'];
export type DeviceFile = Schemas['DfDeviceFile'];
export type Operation = Schemas['DfOperation'];
export type UiNode = Schemas['UiNode'];
export type UiTree = Answer<'/df/api/sessions/{sessionId}/ui-tree'>;
export type SessionLogEntry = Answer<'/df/api/sessions/{sessionId}/logs'>['entries'][number];
export type RecordingStatus = Answer<'/df/api/sessions/{sessionId}/recording/status'>;
export type Replay = Answer<'/df/api/sessions/{sessionId}/replay'>;
export type ReplayFrame = Replay['recordings'][number]['frames'][number];
export type SessionVideo = Schemas['DfSessionVideo'];
export type DebugTarget = Schemas['DfDebugTarget'];
export type DebugCapabilities = Schemas['DfDebugCapabilities'];
export type Host = Schemas['DfHost'];
export type Reservation = Schemas['DfReservation'];
export type DeviceFileRecord = Schemas['DfFile'];
export type App = Schemas['DfApp'];
export type AppVersion = Schemas['DfAppVersion'];
export type TestApk = Schemas['DfTestApk'];
export type Quotas = Schemas['DfQuotas'];
export type DashboardStats = Schemas['DfDashboardStats'];
export type DeviceUsageRow = Schemas['DfDeviceUsageRow'];
export type ReservationReportRow = Schemas['DfReservationReportRow'];
export type SessionReportRow = Schemas['DfSessionReportRow'];
export type AccessibilityAudit = Schemas['DfAccessibilityAudit'];
export type AccessibilityFinding = Schemas['DfAccessibilityFinding'];
export type AccessibilityExport = Schemas['DfAccessibilityExport'];
export type AccessibilityComparison = Answer<'/df/api/accessibility/audits/{auditId}/compare'>;

export interface PlatformClientOptions extends Omit<ClientOptions, 'baseUrl'> {
  /** The platform's address, e.g. `https://qa.example.com` (no trailing path). */
  baseUrl: string;
  /** A bearer access token, or a function answering the current one (it may be refreshed). */
  token?: string | (() => string | undefined);
  /** The workspace the calls act in (`X-Workspace-Id`); the token's own when absent. */
  workspaceId?: number | string;
  /** A module API key (`X-Api-Key`), instead of a token, for the operations that take one. */
  apiKey?: string;
  /** How calls refused for now (429, 503) are tried again after their `Retry-After` (default: 5 tries, waits up to 120 s). */
  retry?: RetryPolicy;
}

export type PlatformClient = Client<paths>;

/** The credentials and workspace header on every request that does not carry its own. */
function credentials(options: PlatformClientOptions): Middleware {
  return {
    onRequest({ request }) {
      const token = typeof options.token === 'function' ? options.token() : options.token;
      if (token && !request.headers.has('authorization')) request.headers.set('authorization', `Bearer ${token}`);
      if (options.apiKey && !request.headers.has('x-api-key')) request.headers.set('x-api-key', options.apiKey);
      if (options.workspaceId !== undefined && !request.headers.has('x-workspace-id')) request.headers.set('x-workspace-id', String(options.workspaceId));
      return request;
    },
  };
}

/**
 * A client of one platform: `client.GET('/df/api/devices', { params: { query: { size: 50 } } })`
 * answers `{ data, error, response }`, `data` typed as the operation's answer, `error` as its error shape.
 */
export function createClient(options: PlatformClientOptions): PlatformClient {
  const { token: _token, workspaceId: _workspaceId, apiKey: _apiKey, retry, ...rest } = options;
  const client = createFetchClient<paths>({ ...rest, fetch: retryingFetch(rest.fetch, retry), baseUrl: options.baseUrl.replace(/\/+$/, '') });
  client.use(credentials(options));
  return client;
}
