// Generated from the platform's OpenAPI document by `npm run client:generate`: do not edit.
// A route whose schema changes makes `npm run client:check` (and test/clients/) fail until this
// file is generated again.

export interface paths {
    "/api/v1/access-review": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Who held which roles, keys, team memberships and workspace grants in a workspace at a moment, rebuilt from the events (AUDIT_READ)
         * @description Folded from the company's events up to `at`, not read from today's tables. JSON, or CSV with `format=csv` or `Accept: text/csv`. 400 `VALIDATION_FAILED` for an `at` that is not a time, 400 `AT_IN_FUTURE` for one in the future, 404 for a workspace of another company or one that did not exist then.
         */
        get: {
            parameters: {
                query: {
                    /** @description The moment reviewed: an ISO 8601 time with its zone (2026-11-01T12:00:00Z), or a date (its midnight UTC); absent: now. Anything else: 400 `VALIDATION_FAILED`; in the future: 400 `AT_IN_FUTURE` */
                    at?: string;
                    /** @description `csv` (or `Accept: text/csv`): one row per person and grant */
                    format?: "json" | "csv";
                    /** @description Adds who could use this key in the workspace at that moment, and through what */
                    permissionKey?: "USER_READ" | "USER_INVITE" | "USER_MANAGE" | "USER_ADMIN_MANAGE" | "USER_PASSWORD_MANAGE" | "ROLE_READ" | "ROLE_MANAGE" | "TEAM_READ" | "TEAM_MANAGE" | "WORKSPACE_READ" | "WORKSPACE_CREATE" | "WORKSPACE_MANAGE" | "AUDIT_READ" | "API_KEY_MANAGE" | "TMT_READ" | "TMT_WRITE" | "TMT_DELETE" | "HEALTHCHECK_READ" | "HEALTHCHECK_MANAGE" | "AUTORUNNER_READ" | "AUTORUNNER_MANAGE" | "df:device:read" | "df:device:manage" | "df:session:read" | "df:session:create" | "df:session:manage" | "df:session:review" | "df:session:share" | "df:debug:use" | "df:app:install" | "df:file:manage" | "df:reservation:manage" | "df:accessibility:use" | "df:report:read" | "df:key:manage" | "df:settings:manage" | "df:host:manage" | "df:session:purge";
                    /** @description A workspace of the caller's company (404 otherwise, and for one that did not exist at `at`) */
                    workspaceId: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AccessReview"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/access-reviews": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The company's access reviews, newest first (AUDIT_READ) */
        get: {
            parameters: {
                query?: {
                    /** @description 0-based page */
                    page?: number;
                    /** @description Page size, at most 200 */
                    size?: number;
                    /** @description Only the reviews of this workspace */
                    workspaceId?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AccessReviewPage"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Start a review of a workspace: its grants as the history folds them now, each to be marked keep or revoke (AUDIT_READ)
         * @description 404 for a workspace that is not the caller's company's (or no longer exists).
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Names this request (1–255 visible ASCII characters): a repeat with the same body within 24 h is answered the first answer again (`Idempotent-Replayed: true`); see docs/api-conventions.md, "Idempotency" */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        workspaceId: number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AccessReviewDetail"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/access-reviews/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One access review with its grants and their decisions (AUDIT_READ) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AccessReviewDetail"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/access-reviews/{id}/complete": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Complete a review: each grant marked revoke is revoked by its ordinary command, and the outcome of each is recorded (AUDIT_READ, and the key each revocation asks)
         * @description 409 `ACCESS_REVIEW_UNDECIDED` (naming each grant in `details`) while a grant has no decision; 409 `ACCESS_REVIEW_COMPLETED` the second time; 403 without the key a revocation's own route asks (WORKSPACE_MANAGE in the workspace, TEAM_MANAGE, USER_MANAGE, USER_ADMIN_MANAGE); 409 `CONFLICT` for your own administrator, `WORKSPACE_ARCHIVED` for grants of an archived workspace. Refused, nothing changes. A grant gone since the start counts as done (`already-gone`).
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Names this request (1–255 visible ASCII characters): a repeat with the same body within 24 h is answered the first answer again (`Idempotent-Replayed: true`); see docs/api-conventions.md, "Idempotency" */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AccessReviewDetail"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/access-reviews/{id}/evidence": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The review as evidence: who started and completed it and when, the workspace, each grant with its decision, who decided it and when, the note and the revocation’s outcome (AUDIT_READ)
         * @description JSON, or CSV (one row per grant) with `format=csv` or `Accept: text/csv`.
         */
        get: {
            parameters: {
                query?: {
                    format?: "json" | "csv";
                };
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AccessReviewEvidence"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/access-reviews/{id}/items/{itemId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Mark one grant of an open review keep or revoke, with a note; a later decision replaces it (AUDIT_READ)
         * @description 409 `ACCESS_REVIEW_COMPLETED` once the review is completed; 404 for an item the review does not have; 409 `CONFLICT` for revoking your own administrator. Nothing is revoked until the review is completed.
         */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                    itemId: string & (unknown & unknown);
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @enum {string} */
                        decision: "keep" | "revoke";
                        note?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AccessReviewItem"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/api-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Your /v1 API keys in the active workspace, revoked ones too (everyone's with API_KEY_MANAGE); never their values */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["V1ApiKey"][];
                    };
                };
            };
        };
        put?: never;
        /** Create a /v1 API key for yourself in the active workspace; its value is in this answer only */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Names this request (1–255 visible ASCII characters): a repeat with the same body within 24 h is answered the first answer again (`Idempotent-Replayed: true`); see docs/api-conventions.md, "Idempotency" */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name: string;
                        /** @description Requests per rate-limit window (RATE_LIMIT_WINDOW, a minute by default) this credential may make, counted apart from its user's own; null: the deployment's default for credentials (RATE_LIMIT_PER_CREDENTIAL). Set by holders of API_KEY_MANAGE */
                        rateLimit?: number | null;
                        /** @description What it may do: on /v1 read (GET, HEAD), write (POST, PUT, PATCH), delete (DELETE), admin (all); devices: the device API, the WebDriver hub and the CDP relay (as a device key does); webhooks: the webhooks of its workspace */
                        scopes: ("read" | "write" | "delete" | "admin" | "devices" | "webhooks")[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            createdAt: string;
                            id: string;
                            /** @description The key itself: shown in this answer only */
                            key: string;
                            name: string;
                            prefix: string;
                            /** @description Requests per rate-limit window (RATE_LIMIT_WINDOW, a minute by default) this credential may make, counted apart from its user's own; null: the deployment's default for credentials (RATE_LIMIT_PER_CREDENTIAL). Set by holders of API_KEY_MANAGE */
                            rateLimit: number | null;
                            scopes: ("read" | "write" | "delete" | "admin" | "devices" | "webhooks")[];
                            workspaceId: number;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/api-keys/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One /v1 API key (never its value) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["V1ApiKey"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Revoke a /v1 API key: yours, or anyone's with API_KEY_MANAGE; it is refused from the next request on */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        options?: never;
        head?: never;
        /** Set a live /v1 API key's own rate budget (null: the default for credentials); needs API_KEY_MANAGE */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Requests per rate-limit window (RATE_LIMIT_WINDOW, a minute by default) this credential may make, counted apart from its user's own; null: the deployment's default for credentials (RATE_LIMIT_PER_CREDENTIAL). Set by holders of API_KEY_MANAGE */
                        rateLimit: number | null;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["V1ApiKey"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/v1/api-keys/{id}/approve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Let a credential made from a password sign-in work again where the company requires single sign-on; needs USER_ADMIN_MANAGE */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Names this request (1–255 visible ASCII characters): a repeat with the same body within 24 h is answered the first answer again (`Idempotent-Replayed: true`); see docs/api-conventions.md, "Idempotency" */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["V1ApiKey"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/audit/bundle": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An export of the company's chain (JSON lines: a header with the public keys, then events and checkpoints) that `dfctl audit verify` checks offline (AUDIT_READ) */
        get: {
            parameters: {
                query?: {
                    /** @description Inclusive: a position in the event log (digits) or an ISO 8601 time, not in the future */
                    from?: string;
                    /** @description Inclusive: a position or an ISO 8601 time, not in the future; absent: up to the chain's head */
                    to?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/audit/event-types": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The event types the audit history records, each with a label in words and its resource type (AUDIT_READ) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AuditEventType"][];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/audit/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The company's audit history, newest first, filtered and paged (AUDIT_READ) */
        get: {
            parameters: {
                query?: {
                    actorId?: number;
                    /** @description Events about one device: its sessions and bookings */
                    deviceId?: string;
                    /** @description One of the audit's event types (`GET /audit/event-types` lists them with their labels) */
                    eventType?: "CompanyRegistered" | "UserRegistered" | "UserPasswordChanged" | "UserInvited" | "UserReinvited" | "UserActivated" | "UserDeactivated" | "UserReactivated" | "UserUpdated" | "UserRolesReplaced" | "AdminGranted" | "AdminRevoked" | "UserProfileImageSet" | "UserProfileImageRemoved" | "UserDeleted" | "UserErased" | "SignInSucceeded" | "SignInFailed" | "SignInSessionStarted" | "SignInSessionEnded" | "SignInSessionsEnded" | "RoleCreated" | "RoleUpdated" | "RoleDeleted" | "TeamCreated" | "TeamUpdated" | "TeamDeleted" | "TeamMemberAdded" | "TeamMemberRemoved" | "WorkspaceCreated" | "WorkspaceUpdated" | "WorkspaceArchived" | "WorkspaceUnarchived" | "WorkspaceDeleted" | "WorkspaceModulesChanged" | "WorkspaceAccessGranted" | "WorkspaceAccessRevoked" | "WorkspaceMemberRolesAssigned" | "WorkspaceMemberRoleRemoved" | "ApiKeyCreated" | "ApiKeyRevoked" | "ApiKeyRateLimitSet" | "OAuthClientCreated" | "OAuthClientDeleted" | "OAuthClientRateLimitSet" | "DomainClaimed" | "DomainVerified" | "DomainReleased" | "CredentialApproved" | "IdentityProviderCreated" | "IdentityProviderChanged" | "IdentityProviderDeleted" | "ScimTokenCreated" | "ScimTokenRevoked" | "WebhookCreated" | "WebhookChanged" | "WebhookDisabled" | "WebhookDeleted" | "WebhookSecretRotated" | "WebhookSecretResealed" | "AccessReviewStarted" | "AccessReviewItemDecided" | "AccessReviewCompleted" | "DeviceSessionRequested" | "DeviceSessionStarted" | "DeviceSessionFailed" | "DeviceSessionEnded" | "DeviceSessionDeleted" | "DeviceSessionRenamed" | "DeviceSessionMetadataUpdated" | "DeviceSessionNotesUpdated" | "DeviceSessionOutcomeSet" | "DeviceSessionRecordingStarted" | "DeviceSessionRecordingStopped" | "DeviceSessionVideoExpired" | "DeviceSessionDebugAccessGranted" | "DeviceSessionDebugAccessWithdrawn" | "HostEnrolled" | "HostRenamed" | "HostRescoped" | "HostTokenRotated" | "HostRevoked" | "HostFirstConnected" | "DeviceMoved" | "DeviceClaimRefused" | "DfApiKeyCreated" | "DfApiKeyRevoked" | "DeviceReservationScheduled" | "DeviceReservationActivated" | "DeviceReservationRescheduled" | "DeviceReservationSessionOpened" | "DeviceReservationEnded" | "DeviceReservationCancelled" | "DeviceReservationExpired" | "DeviceReservationMaintenanceConflict" | "DeviceReservationMaintenanceConflictCleared" | "DeviceSessionInvitationCreated" | "DeviceSessionInvitationRevoked" | "DeviceSessionInvitationAccepted" | "DeviceSessionViewerJoined" | "DeviceSessionViewerDisconnected" | "AccessibilityAuditStarted" | "AccessibilityScanRecorded" | "AccessibilityAuditCompleted" | "AccessibilityFindingTriaged" | "AccessibilityExportRequested" | "AccessibilityExportFinished" | "DfSessionDefaultsSet" | "DfQuotaPlanSet" | "DeviceHealthChanged" | "DeviceMendingStarted" | "DeviceMendingStepBegun" | "DeviceMendingStep" | "DeviceMendingEnded" | "DeviceBaselineRetaken" | "DfHealthRulesSet" | "FileUploadStarted" | "FileUploadAborted" | "FileConfirmed" | "FileRejected" | "FileCatalogued" | "FileDeleted" | "AppVersionAdded" | "AppVersionDeleted" | "AppDeleted" | "DeviceAppInstalled" | "DeviceAppUninstalled";
                    /** @description Inclusive, ISO 8601 */
                    from?: string;
                    /** @description 0-based page */
                    page?: number;
                    resourceId?: string;
                    resourceType?: "company" | "user" | "role" | "team" | "workspace" | "api-key" | "oauth-client" | "device-session" | "device-host" | "device" | "device-api-key" | "device-reservation" | "device-session-share" | "device-session-viewer" | "accessibility-audit" | "device-session-defaults" | "device-quota-plan" | "device-health" | "device-health-rules" | "file" | "app" | "device-app-install" | "email-domain" | "credential-approval" | "identity-provider" | "scim-token" | "webhook" | "access-review";
                    /** @description Events about one device session: opened, shared, watched, ended, removed */
                    sessionId?: string;
                    /** @description Page size, at most 200 */
                    size?: number;
                    /** @description Exclusive, ISO 8601 */
                    to?: string;
                    workspaceId?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AuditEventPage"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/audit/events/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Export the filtered audit history as CSV or NDJSON, streamed, newest first (AUDIT_READ) */
        get: {
            parameters: {
                query?: {
                    actorId?: number;
                    /** @description Events about one device: its sessions and bookings */
                    deviceId?: string;
                    /** @description One of the audit's event types (`GET /audit/event-types` lists them with their labels) */
                    eventType?: "CompanyRegistered" | "UserRegistered" | "UserPasswordChanged" | "UserInvited" | "UserReinvited" | "UserActivated" | "UserDeactivated" | "UserReactivated" | "UserUpdated" | "UserRolesReplaced" | "AdminGranted" | "AdminRevoked" | "UserProfileImageSet" | "UserProfileImageRemoved" | "UserDeleted" | "UserErased" | "SignInSucceeded" | "SignInFailed" | "SignInSessionStarted" | "SignInSessionEnded" | "SignInSessionsEnded" | "RoleCreated" | "RoleUpdated" | "RoleDeleted" | "TeamCreated" | "TeamUpdated" | "TeamDeleted" | "TeamMemberAdded" | "TeamMemberRemoved" | "WorkspaceCreated" | "WorkspaceUpdated" | "WorkspaceArchived" | "WorkspaceUnarchived" | "WorkspaceDeleted" | "WorkspaceModulesChanged" | "WorkspaceAccessGranted" | "WorkspaceAccessRevoked" | "WorkspaceMemberRolesAssigned" | "WorkspaceMemberRoleRemoved" | "ApiKeyCreated" | "ApiKeyRevoked" | "ApiKeyRateLimitSet" | "OAuthClientCreated" | "OAuthClientDeleted" | "OAuthClientRateLimitSet" | "DomainClaimed" | "DomainVerified" | "DomainReleased" | "CredentialApproved" | "IdentityProviderCreated" | "IdentityProviderChanged" | "IdentityProviderDeleted" | "ScimTokenCreated" | "ScimTokenRevoked" | "WebhookCreated" | "WebhookChanged" | "WebhookDisabled" | "WebhookDeleted" | "WebhookSecretRotated" | "WebhookSecretResealed" | "AccessReviewStarted" | "AccessReviewItemDecided" | "AccessReviewCompleted" | "DeviceSessionRequested" | "DeviceSessionStarted" | "DeviceSessionFailed" | "DeviceSessionEnded" | "DeviceSessionDeleted" | "DeviceSessionRenamed" | "DeviceSessionMetadataUpdated" | "DeviceSessionNotesUpdated" | "DeviceSessionOutcomeSet" | "DeviceSessionRecordingStarted" | "DeviceSessionRecordingStopped" | "DeviceSessionVideoExpired" | "DeviceSessionDebugAccessGranted" | "DeviceSessionDebugAccessWithdrawn" | "HostEnrolled" | "HostRenamed" | "HostRescoped" | "HostTokenRotated" | "HostRevoked" | "HostFirstConnected" | "DeviceMoved" | "DeviceClaimRefused" | "DfApiKeyCreated" | "DfApiKeyRevoked" | "DeviceReservationScheduled" | "DeviceReservationActivated" | "DeviceReservationRescheduled" | "DeviceReservationSessionOpened" | "DeviceReservationEnded" | "DeviceReservationCancelled" | "DeviceReservationExpired" | "DeviceReservationMaintenanceConflict" | "DeviceReservationMaintenanceConflictCleared" | "DeviceSessionInvitationCreated" | "DeviceSessionInvitationRevoked" | "DeviceSessionInvitationAccepted" | "DeviceSessionViewerJoined" | "DeviceSessionViewerDisconnected" | "AccessibilityAuditStarted" | "AccessibilityScanRecorded" | "AccessibilityAuditCompleted" | "AccessibilityFindingTriaged" | "AccessibilityExportRequested" | "AccessibilityExportFinished" | "DfSessionDefaultsSet" | "DfQuotaPlanSet" | "DeviceHealthChanged" | "DeviceMendingStarted" | "DeviceMendingStepBegun" | "DeviceMendingStep" | "DeviceMendingEnded" | "DeviceBaselineRetaken" | "DfHealthRulesSet" | "FileUploadStarted" | "FileUploadAborted" | "FileConfirmed" | "FileRejected" | "FileCatalogued" | "FileDeleted" | "AppVersionAdded" | "AppVersionDeleted" | "AppDeleted" | "DeviceAppInstalled" | "DeviceAppUninstalled";
                    format?: "csv" | "ndjson";
                    /** @description Inclusive, ISO 8601 */
                    from?: string;
                    resourceId?: string;
                    resourceType?: "company" | "user" | "role" | "team" | "workspace" | "api-key" | "oauth-client" | "device-session" | "device-host" | "device" | "device-api-key" | "device-reservation" | "device-session-share" | "device-session-viewer" | "accessibility-audit" | "device-session-defaults" | "device-quota-plan" | "device-health" | "device-health-rules" | "file" | "app" | "device-app-install" | "email-domain" | "credential-approval" | "identity-provider" | "scim-token" | "webhook" | "access-review";
                    /** @description Events about one device session: opened, shared, watched, ended, removed */
                    sessionId?: string;
                    /** @description Exclusive, ISO 8601 */
                    to?: string;
                    workspaceId?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/audit/keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The installation's checkpoint signing keys, every one ever used (JWK set, Ed25519) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AuditSigningKeys"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/audit/shipping": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Where the shipping of the audit history to the installation's SIEM stands, each target with the company's backlog; no targets when the operator set none (AUDIT_READ) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AuditShipping"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/audit/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Verifies the company's chain of events between two bounds: hashes, order, signed checkpoints (AUDIT_READ) */
        get: {
            parameters: {
                query?: {
                    /** @description Inclusive: a position in the event log (digits) or an ISO 8601 time, not in the future */
                    from?: string;
                    /** @description Inclusive: a position or an ISO 8601 time, not in the future; absent: up to the chain's head */
                    to?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AuditVerification"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/forgot-password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Mail a password-reset link (answers the same whether or not the account exists) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** Format: email */
                        email: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/jwks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Public keys that verify access tokens */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sign in with username or e-mail */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["LoginRequestInput"];
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["TokenPair"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** End the sign-in session of this token: every access token of it (switched workspaces included) and its refresh tokens stop working; other sign-ins go on */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Names this request (1–255 visible ASCII characters): a repeat with the same body within 24 h is answered the first answer again (`Idempotent-Replayed: true`); see docs/api-conventions.md, "Idempotency" */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/providers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The identity providers the owner of an address's domain (the company that verified it) offers for it on a sign-in page; `enforce`: the only way in */
        get: {
            parameters: {
                query?: {
                    email?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            enforce: boolean;
                            id: number;
                            name: string;
                            /** @enum {string} */
                            type: "oidc" | "saml" | "ldap";
                        }[];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/refresh": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Exchange a refresh token for a new token pair */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        refreshToken: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["TokenPair"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/reset-password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Set a new password with a reset token */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        password: string;
                        token: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Your active sign-in sessions (neither ended nor expired), the latest used first; `current` marks the one of this token */
        get: {
            parameters: {
                query?: {
                    /** @description 0-based page */
                    page?: number;
                    /** @description Page size, at most 200 */
                    size?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SignInSessionPage"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/sessions/{sessionId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** End one of your sign-in sessions: its access and refresh tokens stop working at once (404 for an ended, expired or unknown one) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    sessionId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/signup": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Register a company with its administrator (403 SIGNUP_DISABLED when the operator switched it off; 409 DOMAIN_TAKEN at an address of a domain a company verified) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        companyName: string;
                        /** Format: email */
                        email: string;
                        name: string;
                        password: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["TokenPair"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/sso/{id}/callback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The OpenID provider's answer; ends in the console (302) with a one-time code, or the failure */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        /** SAML assertion consumer service (HTTP-POST binding); ends in the console (302) with a one-time code, or the failure */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        RelayState?: string;
                        SAMLResponse?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/sso/{id}/start": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Go to the provider to sign in (302); LDAP providers sign in with POST /auth/login */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/sso/exchange": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** The token pair of a finished sign-in through a provider, for its one-time code (once, within a minute) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        code: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            expiresIn: string;
                            refreshToken: string;
                            token: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/switch-workspace/{workspaceId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Re-issue the token with another active workspace */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Names this request (1–255 visible ASCII characters): a repeat with the same body within 24 h is answered the first answer again (`Idempotent-Replayed: true`); see docs/api-conventions.md, "Idempotency" */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    workspaceId: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["TokenPair"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/domains": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The company's e-mail domains, verified or not (USER_ADMIN_MANAGE) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Domain"][];
                    };
                };
            };
        };
        put?: never;
        /** Claim an e-mail domain; the answer names the TXT record that proves it (USER_ADMIN_MANAGE). 409 DOMAIN_TAKEN when another company verified it */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Names this request (1–255 visible ASCII characters): a repeat with the same body within 24 h is answered the first answer again (`Idempotent-Replayed: true`); see docs/api-conventions.md, "Idempotency" */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        domain: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Domain"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/domains/{domain}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Give the domain up: its providers no longer enforce or are offered for it (USER_ADMIN_MANAGE) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    domain: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/domains/{domain}/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Look the TXT record up and verify the domain (USER_ADMIN_MANAGE); 409 DOMAIN_NOT_VERIFIED says what the resolver saw, DOMAIN_TAKEN when another company was first */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Names this request (1–255 visible ASCII characters): a repeat with the same body within 24 h is answered the first answer again (`Idempotent-Replayed: true`); see docs/api-conventions.md, "Idempotency" */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    domain: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Domain"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/identity-providers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The company's identity providers (USER_ADMIN_MANAGE) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["IdentityProvider"][];
                    };
                };
            };
        };
        put?: never;
        /** Add an OpenID Connect, SAML 2.0 or LDAP provider (USER_ADMIN_MANAGE); `config` by type, docs/modules/identity.md */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Names this request (1–255 visible ASCII characters): a repeat with the same body within 24 h is answered the first answer again (`Idempotent-Replayed: true`); see docs/api-conventions.md, "Idempotency" */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        config: {
                            [key: string]: unknown;
                        };
                        domains: string[];
                        /** @default true */
                        enabled?: boolean;
                        /** @default false */
                        enforce?: boolean;
                        /** @default false */
                        jitProvisioning?: boolean;
                        /** @default [] */
                        mappings?: {
                            claim?: string;
                            group?: string;
                            /** @default [] */
                            roleIds?: number[];
                            /** @default [] */
                            teamIds?: number[];
                            value?: string;
                            /** @default [] */
                            workspaceIds?: number[];
                        }[];
                        name: string;
                        /** @enum {string} */
                        type: "oidc" | "saml" | "ldap";
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["IdentityProvider"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/identity-providers/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One identity provider (USER_ADMIN_MANAGE) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["IdentityProvider"];
                    };
                };
            };
        };
        /** Replace the settings of an identity provider; a secret left out of `config` is kept (USER_ADMIN_MANAGE) */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        config: {
                            [key: string]: unknown;
                        };
                        domains: string[];
                        /** @default true */
                        enabled?: boolean;
                        /** @default false */
                        enforce?: boolean;
                        /** @default false */
                        jitProvisioning?: boolean;
                        /** @default [] */
                        mappings?: {
                            claim?: string;
                            group?: string;
                            /** @default [] */
                            roleIds?: number[];
                            /** @default [] */
                            teamIds?: number[];
                            value?: string;
                            /** @default [] */
                            workspaceIds?: number[];
                        }[];
                        name: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["IdentityProvider"];
                    };
                };
            };
        };
        post?: never;
        /** Remove an identity provider; its users stay (USER_ADMIN_MANAGE) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/identity-providers/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Try the configuration: OpenID discovery, the SAML settings, or a bind and a read of the LDAP search base (USER_ADMIN_MANAGE) */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Names this request (1–255 visible ASCII characters): a repeat with the same body within 24 h is answered the first answer again (`Idempotent-Replayed: true`); see docs/api-conventions.md, "Idempotency" */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            details: {
                                [key: string]: unknown;
                            };
                            /** @enum {boolean} */
                            ok: true;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/oauth-clients": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Your OAuth clients in the active workspace (everyone's with API_KEY_MANAGE); never their secrets */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["OAuthClient"][];
                    };
                };
            };
        };
        put?: never;
        /** Create an OAuth 2.0 client (client credentials) acting as you in the active workspace; the secret is in this answer only */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Names this request (1–255 visible ASCII characters): a repeat with the same body within 24 h is answered the first answer again (`Idempotent-Replayed: true`); see docs/api-conventions.md, "Idempotency" */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name: string;
                        /** @description Requests per rate-limit window (RATE_LIMIT_WINDOW, a minute by default) this credential may make, counted apart from its user's own; null: the deployment's default for credentials (RATE_LIMIT_PER_CREDENTIAL). Set by holders of API_KEY_MANAGE */
                        rateLimit?: number | null;
                        /** @description What it may do: on /v1 read (GET, HEAD), write (POST, PUT, PATCH), delete (DELETE), admin (all); devices: the device API, the WebDriver hub and the CDP relay (as a device key does); webhooks: the webhooks of its workspace */
                        scopes: ("read" | "write" | "delete" | "admin" | "devices" | "webhooks")[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            clientId: string;
                            /** @description Shown in this answer only */
                            clientSecret: string;
                            createdAt: string;
                            id: string;
                            name: string;
                            /** @description Requests per rate-limit window (RATE_LIMIT_WINDOW, a minute by default) this credential may make, counted apart from its user's own; null: the deployment's default for credentials (RATE_LIMIT_PER_CREDENTIAL). Set by holders of API_KEY_MANAGE */
                            rateLimit: number | null;
                            scopes: ("read" | "write" | "delete" | "admin" | "devices" | "webhooks")[];
                            workspaceId: number;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/oauth-clients/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One OAuth client (never its secret) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["OAuthClient"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Delete an OAuth client (yours, or anyone's with API_KEY_MANAGE); every token issued to it stops working */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        options?: never;
        head?: never;
        /** Set an OAuth client's own rate budget (null: the default for credentials), for the tokens it has and will get; needs API_KEY_MANAGE */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Requests per rate-limit window (RATE_LIMIT_WINDOW, a minute by default) this credential may make, counted apart from its user's own; null: the deployment's default for credentials (RATE_LIMIT_PER_CREDENTIAL). Set by holders of API_KEY_MANAGE */
                        rateLimit: number | null;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["OAuthClient"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/v1/oauth-clients/{id}/approve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Let a credential made from a password sign-in work again where the company requires single sign-on; needs USER_ADMIN_MANAGE */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Names this request (1–255 visible ASCII characters): a repeat with the same body within 24 h is answered the first answer again (`Idempotent-Replayed: true`); see docs/api-conventions.md, "Idempotency" */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["OAuthClient"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/observability": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** How the answering process serves metrics and exports traces, and this request’s id and trace id (USER_ADMIN_MANAGE); never a token, endpoint or header */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Observability"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/permissions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The catalog of permission keys */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            description: string;
                            key: string;
                            module: string;
                        }[];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/permissions/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Your permission keys in the active workspace (same as /users/me/permissions) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Permission keys */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": string[];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/permissions/modules": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The permission keys grouped by module */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            description: string;
                            module: string;
                            permissions: string[];
                        }[];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/roles": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Roles of the company, built-in and custom (ROLE_READ) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Role"][];
                    };
                };
            };
        };
        put?: never;
        /** Create a custom role; names are unique per company, case-insensitive (ROLE_MANAGE; only keys you hold) */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Names this request (1–255 visible ASCII characters): a repeat with the same body within 24 h is answered the first answer again (`Idempotent-Replayed: true`); see docs/api-conventions.md, "Idempotency" */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @default  */
                        description?: string;
                        name: string;
                        permissions: ("USER_READ" | "USER_INVITE" | "USER_MANAGE" | "USER_ADMIN_MANAGE" | "USER_PASSWORD_MANAGE" | "ROLE_READ" | "ROLE_MANAGE" | "TEAM_READ" | "TEAM_MANAGE" | "WORKSPACE_READ" | "WORKSPACE_CREATE" | "WORKSPACE_MANAGE" | "AUDIT_READ" | "API_KEY_MANAGE" | "TMT_READ" | "TMT_WRITE" | "TMT_DELETE" | "HEALTHCHECK_READ" | "HEALTHCHECK_MANAGE" | "AUTORUNNER_READ" | "AUTORUNNER_MANAGE" | "df:device:read" | "df:device:manage" | "df:session:read" | "df:session:create" | "df:session:manage" | "df:session:review" | "df:session:share" | "df:debug:use" | "df:app:install" | "df:file:manage" | "df:reservation:manage" | "df:accessibility:use" | "df:report:read" | "df:key:manage" | "df:settings:manage" | "df:host:manage" | "df:session:purge")[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Role"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/roles/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One role (ROLE_READ) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Role"];
                    };
                };
            };
        };
        /** Change a custom role; built-in roles cannot be changed (ROLE_MANAGE; only keys you hold can be added) */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        description?: string;
                        name?: string;
                        permissions?: ("USER_READ" | "USER_INVITE" | "USER_MANAGE" | "USER_ADMIN_MANAGE" | "USER_PASSWORD_MANAGE" | "ROLE_READ" | "ROLE_MANAGE" | "TEAM_READ" | "TEAM_MANAGE" | "WORKSPACE_READ" | "WORKSPACE_CREATE" | "WORKSPACE_MANAGE" | "AUDIT_READ" | "API_KEY_MANAGE" | "TMT_READ" | "TMT_WRITE" | "TMT_DELETE" | "HEALTHCHECK_READ" | "HEALTHCHECK_MANAGE" | "AUTORUNNER_READ" | "AUTORUNNER_MANAGE" | "df:device:read" | "df:device:manage" | "df:session:read" | "df:session:create" | "df:session:manage" | "df:session:review" | "df:session:share" | "df:debug:use" | "df:app:install" | "df:file:manage" | "df:reservation:manage" | "df:accessibility:use" | "df:report:read" | "df:key:manage" | "df:settings:manage" | "df:host:manage" | "df:session:purge")[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Role"];
                    };
                };
            };
        };
        post?: never;
        /** Delete a custom role; it is taken from every user and workspace member holding it (ROLE_MANAGE) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/roles/{id}/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Users holding the role company-wide, paged (ROLE_READ and USER_READ) */
        get: {
            parameters: {
                query?: {
                    /** @description 0-based page */
                    page?: number;
                    /** @description Page size, at most 200 */
                    size?: number;
                };
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RoleUserPage"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/scim-tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The company's SCIM tokens, revoked ones too (USER_ADMIN_MANAGE) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ScimToken"][];
                    };
                };
            };
        };
        put?: never;
        /** A token for a directory to provision users and teams at /scim/v2; the token is answered once (USER_ADMIN_MANAGE) */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Names this request (1–255 visible ASCII characters): a repeat with the same body within 24 h is answered the first answer again (`Idempotent-Replayed: true`); see docs/api-conventions.md, "Idempotency" */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name: string;
                        /** @default [] */
                        roleIds?: number[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            createdAt: string;
                            createdBy: number;
                            id: string;
                            name: string;
                            /** @description Made from a password sign-in while the company requires single sign-on: refused until an administrator approves it */
                            needsApproval: boolean;
                            /** @description The first characters of the token, to recognise it */
                            prefix: string;
                            revokedAt: string | null;
                            /** @description Company roles every user it provisions is given */
                            roleIds: number[];
                            /**
                             * @description How its creator was signed in when they made it
                             * @enum {string}
                             */
                            signIn: "password" | "sso";
                            /** @description The token itself (`scim_...`): shown in this answer only */
                            token: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/scim-tokens/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke a SCIM token; requests with it are refused at once (USER_ADMIN_MANAGE) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/scim-tokens/{id}/approve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Let a SCIM token made from a password sign-in work again where the company requires single sign-on (USER_ADMIN_MANAGE) */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Names this request (1–255 visible ASCII characters): a repeat with the same body within 24 h is answered the first answer again (`Idempotent-Replayed: true`); see docs/api-conventions.md, "Idempotency" */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ScimToken"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/teams": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Teams of the company (TEAM_READ) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Team"][];
                    };
                };
            };
        };
        put?: never;
        /** Create a team; names are unique per company, case-insensitive (TEAM_MANAGE) */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Names this request (1–255 visible ASCII characters): a repeat with the same body within 24 h is answered the first answer again (`Idempotent-Replayed: true`); see docs/api-conventions.md, "Idempotency" */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @default  */
                        description?: string;
                        name: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Team"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/teams/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One team (TEAM_READ) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Team"];
                    };
                };
            };
        };
        /** Rename or describe a team (TEAM_MANAGE) */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        description?: string;
                        name?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Team"];
                    };
                };
            };
        };
        post?: never;
        /** Delete a team; workspace access granted to it ends (TEAM_MANAGE) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/teams/{id}/members/{userId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Add a user of the company to the team (TEAM_MANAGE) */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Names this request (1–255 visible ASCII characters): a repeat with the same body within 24 h is answered the first answer again (`Idempotent-Replayed: true`); see docs/api-conventions.md, "Idempotency" */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    id: number;
                    userId: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Team"];
                    };
                };
            };
        };
        /** Remove a member from the team (TEAM_MANAGE) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                    userId: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Team"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Users of the company, filtered and paged (USER_READ) */
        get: {
            parameters: {
                query?: {
                    isAdmin?: "true" | "false";
                    /** @description 0-based page */
                    page?: number;
                    roleId?: number;
                    /** @description Part of the name, e-mail or username */
                    search?: string;
                    /** @description Page size, at most 200 */
                    size?: number;
                    sortBy?: "id" | "name" | "email" | "username" | "createdAt" | "lastSignInAt";
                    sortDir?: "asc" | "desc";
                    status?: "passive" | "active" | "deactivated";
                    teamId?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["UserPage"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/users/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One user (USER_READ, or yourself) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["User"];
                    };
                };
            };
        };
        /** Update name, username, title, phone (yourself, or USER_MANAGE) */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name?: string;
                        phone?: string | null;
                        title?: string | null;
                        username?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["User"];
                    };
                };
            };
        };
        post?: never;
        /** Delete a user; their tokens stop working and the e-mail address can be invited again (USER_MANAGE) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/users/{id}/admin": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Grant or revoke company administrator (USER_ADMIN_MANAGE) */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        isAdmin: boolean;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["User"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/v1/users/{id}/companies": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Change company membership (USER_MANAGE). A user belongs to exactly one company and tenants are walled off, so the only membership a caller can set is their own company */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        companyId: number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["User"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/users/{id}/erase": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Erase a person: delete the user if still there, destroy the key their personal data in events is sealed with (names, addresses, notes then read as an erased person's everywhere), and rebuild the read models that keep it; 202 when those are still rebuilding (USER_MANAGE) */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Names this request (1–255 visible ASCII characters): a repeat with the same body within 24 h is answered the first answer again (`Idempotent-Replayed: true`); see docs/api-conventions.md, "Idempotency" */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Erasure"];
                    };
                };
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Erasure"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/users/{id}/image": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The profile image, as stored (USER_READ, or yourself) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        /** Set a profile image: multipart/form-data with a profileImage part (yourself, or USER_MANAGE) */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["User"];
                    };
                };
            };
        };
        post?: never;
        /** Remove the profile image (yourself, or USER_MANAGE) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/users/{id}/password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Set another user's password; their tokens stop working (USER_PASSWORD_MANAGE) */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        password: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/users/{id}/profile": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Update profile fields: name, title, phone (yourself, or USER_MANAGE) */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name?: string;
                        phone?: string | null;
                        title?: string | null;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["User"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/users/{id}/roles": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Replace the user's company roles (USER_MANAGE; only roles whose keys you hold yourself can be added) */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        roleIds: number[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["User"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/users/{id}/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A user's active sign-in sessions (user agent, address, created, last use), the latest used first (USER_READ, or yourself) */
        get: {
            parameters: {
                query?: {
                    /** @description 0-based page */
                    page?: number;
                    /** @description Page size, at most 200 */
                    size?: number;
                };
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["UserSignInSessionPage"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/users/{id}/sign-out-everywhere": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sign a user out everywhere: every sign-in session of theirs ends, each access and refresh token stops working at once (USER_MANAGE, or yourself) */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Names this request (1–255 visible ASCII characters): a repeat with the same body within 24 h is answered the first answer again (`Idempotent-Replayed: true`); see docs/api-conventions.md, "Idempotency" */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/users/{id}/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Activate or deactivate a user; a deactivated user cannot sign in and their tokens stop working at once (USER_MANAGE) */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "active" | "deactivated";
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["User"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/users/{username}/available": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Whether a username is free */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Names this request (1–255 visible ASCII characters): a repeat with the same body within 24 h is answered the first answer again (`Idempotent-Replayed: true`); see docs/api-conventions.md, "Idempotency" */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    username: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            available: boolean;
                            username: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/users/activate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Accept an invitation: JSON {token, password, name?}, or multipart/form-data with those fields and a profileImage part (PNG, JPEG or WebP, at most 2 MiB) */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["User"];
                    };
                };
            };
        };
        /** Accept an invitation: JSON {token, password, name?}, or multipart/form-data with those fields and a profileImage part (PNG, JPEG or WebP, at most 2 MiB) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["User"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/users/email": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Look a user of the company up by e-mail address (USER_READ) */
        get: {
            parameters: {
                query: {
                    email: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["User"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/users/filter-options": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Values the user list can be filtered by, with counts (USER_READ) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            isAdmin: {
                                count: number;
                                value: boolean;
                            }[];
                            roles: {
                                count: number;
                                id: number;
                                name: string;
                            }[];
                            statuses: {
                                count: number;
                                value: string;
                            }[];
                            teams: {
                                count: number;
                                id: number;
                                name: string;
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/users/invite": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Invite by e-mail: creates a passive user and mails an activation link; workspaceIds are granted on activation (USER_INVITE, and WORKSPACE_MANAGE in each workspace). Inviting a pending user again answers 200 with resent: true and mails a new link (the earlier one stops working); roles and workspaces change only when sent */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Names this request (1–255 visible ASCII characters): a repeat with the same body within 24 h is answered the first answer again (`Idempotent-Replayed: true`); see docs/api-conventions.md, "Idempotency" */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** Format: email */
                        email: string;
                        /** @description Company roles; on a new invitation absent means none, on a repeated one it keeps the roles */
                        roleIds?: number[];
                        /** @description Workspaces of the company the user may enter once activated; on a repeated invitation absent keeps the earlier ones */
                        workspaceIds?: number[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvitedUser"];
                    };
                };
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvitedUser"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/users/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The signed-in account */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["User"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/users/me/administrators": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Your company's active administrators (name, e-mail): whom to ask for access to a workspace. Any signed-in user */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["CompanyAdministrator"][];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/users/me/permissions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Your permission keys in the active workspace (same as /permissions/me) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Permission keys */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": string[];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/users/password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Change your own password; every token of yours stops working, so sign in again */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        currentPassword: string;
                        newPassword: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/users/user-login-logs/{userId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A user's sign-in attempts, newest first: time, address, user agent, success or reason, the identity provider (USER_READ, or yourself) */
        get: {
            parameters: {
                query?: {
                    /** @description 0-based page */
                    page?: number;
                    /** @description Page size, at most 200 */
                    size?: number;
                };
                header?: never;
                path: {
                    userId: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SignInPage"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/users/validate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Validate the current session */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            companyId: number;
                            expiresAt: string;
                            userId: number;
                            /** @enum {boolean} */
                            valid: true;
                            workspaceId: number | null;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** All workspaces of the company (WORKSPACE_READ) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Workspace"][];
                    };
                };
            };
        };
        put?: never;
        /** Create a workspace (WORKSPACE_CREATE); a creator who is not an administrator is granted access to it */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Names this request (1–255 visible ASCII characters): a repeat with the same body within 24 h is answered the first answer again (`Idempotent-Replayed: true`); see docs/api-conventions.md, "Idempotency" */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @default  */
                        description?: string;
                        modules?: ("TMT" | "DF" | "AUTORUNNER" | "HEALTHCHECK")[];
                        name: string;
                        /** @default {} */
                        settings?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Workspace"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One workspace (if you can enter it, or with WORKSPACE_READ) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Workspace"];
                    };
                };
            };
        };
        /** Change name, description and settings (WORKSPACE_MANAGE; not while archived) */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        description?: string;
                        name?: string;
                        settings?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Workspace"];
                    };
                };
            };
        };
        post?: never;
        /** Delete a workspace, archived or not; nobody can enter it any more (WORKSPACE_MANAGE) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{id}/access": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Current team and user grants (WORKSPACE_READ) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["WorkspaceAccess"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{id}/access/teams": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Grant a team access (WORKSPACE_MANAGE) */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Names this request (1–255 visible ASCII characters): a repeat with the same body within 24 h is answered the first answer again (`Idempotent-Replayed: true`); see docs/api-conventions.md, "Idempotency" */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        teamId: number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["WorkspaceAccess"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{id}/access/teams/{teamId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke a team's access (WORKSPACE_MANAGE) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                    teamId: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{id}/access/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Grant a user access (WORKSPACE_MANAGE) */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Names this request (1–255 visible ASCII characters): a repeat with the same body within 24 h is answered the first answer again (`Idempotent-Replayed: true`); see docs/api-conventions.md, "Idempotency" */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        userId: number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["WorkspaceAccess"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{id}/access/users/{userId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke a user's direct access (WORKSPACE_MANAGE) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                    userId: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{id}/archive": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Archive: the workspace becomes read-only (WORKSPACE_MANAGE) */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Workspace"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{id}/has-access": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Whether you can enter the workspace */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            hasAccess: boolean;
                            workspaceId: number;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{id}/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Everyone who can enter the workspace, how, and their roles there */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["WorkspaceMember"][];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{id}/members/{userId}/roles/{roleId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Take one role from a member in this workspace (WORKSPACE_MANAGE) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                    roleId: number;
                    userId: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{id}/members/roles": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Give a member roles in this workspace, added to those they have (WORKSPACE_MANAGE; only keys you hold there) */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Names this request (1–255 visible ASCII characters): a repeat with the same body within 24 h is answered the first answer again (`Idempotent-Replayed: true`); see docs/api-conventions.md, "Idempotency" */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        roleIds: number[];
                        userId: number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["WorkspaceMember"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{id}/modules": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Modules the workspace is entitled to */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["WorkspaceModules"];
                    };
                };
            };
        };
        /** Change the modules the workspace is entitled to (WORKSPACE_MANAGE) */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        modules: ("TMT" | "DF" | "AUTORUNNER" | "HEALTHCHECK")[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["WorkspaceModules"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{id}/my-roles": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Your roles there: company roles, and member roles in this workspace (while you can enter it) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            companyRoles: components["schemas"]["Role"][];
                            isAdmin: boolean;
                            workspaceId: number;
                            workspaceRoles: components["schemas"]["Role"][];
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{id}/switch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Switch to the workspace: a token pair with it baked in, and a visit */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Names this request (1–255 visible ASCII characters): a repeat with the same body within 24 h is answered the first answer again (`Idempotent-Replayed: true`); see docs/api-conventions.md, "Idempotency" */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            expiresIn: string;
                            refreshToken: string;
                            token: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{id}/touch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Mark the workspace as recently visited (if you can enter it) */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Names this request (1–255 visible ASCII characters): a repeat with the same body within 24 h is answered the first answer again (`Idempotent-Replayed: true`); see docs/api-conventions.md, "Idempotency" */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{id}/unarchive": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Restore an archived workspace (WORKSPACE_MANAGE) */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Workspace"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{id}/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The workspace's webhooks (WORKSPACE_MANAGE) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Webhook"][];
                    };
                };
            };
        };
        put?: never;
        /** Add a webhook; the answer shows its signing secret, the only time it is shown (WORKSPACE_MANAGE) */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Names this request (1–255 visible ASCII characters): a repeat with the same body within 24 h is answered the first answer again (`Idempotent-Replayed: true`); see docs/api-conventions.md, "Idempotency" */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @default true */
                        enabled?: boolean;
                        /** @description Any of session.ended, reservation.starting, reservation.ended, reservation.maintenance_conflict, accessibility.export.ready, test_session.finished, test_run.finished, healthcheck.down, healthcheck.recovered, host.lost, device.health_changed, device.quarantined, device.recovered */
                        events: string[];
                        /** @description An http:// or https:// URL */
                        url: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Webhook"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{id}/webhooks/{hookId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One webhook (WORKSPACE_MANAGE) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    hookId: number;
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Webhook"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Remove a webhook; nothing more is sent to it (WORKSPACE_MANAGE) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    hookId: number;
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        options?: never;
        head?: never;
        /** Change the URL or the events, or enable or disable a webhook; enabling clears `disabledReason` (WORKSPACE_MANAGE) */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    hookId: number;
                    id: number;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        enabled?: boolean;
                        /** @description Any of session.ended, reservation.starting, reservation.ended, reservation.maintenance_conflict, accessibility.export.ready, test_session.finished, test_run.finished, healthcheck.down, healthcheck.recovered, host.lost, device.health_changed, device.quarantined, device.recovered */
                        events?: string[];
                        /** @description An http:// or https:// URL */
                        url?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Webhook"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/v1/workspaces/{id}/webhooks/{hookId}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A webhook's deliveries, newest first, each with its attempts (WORKSPACE_MANAGE) */
        get: {
            parameters: {
                query?: {
                    /** @description 0-based page */
                    page?: number;
                    /** @description Page size, at most 200 */
                    size?: number;
                };
                header?: never;
                path: {
                    hookId: number;
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            content: components["schemas"]["WebhookDelivery"][];
                            page: number;
                            size: number;
                            totalElements: number;
                            totalPages: number;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{id}/webhooks/{hookId}/deliveries/{deliveryId}/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a delivery again now, with a fresh retry schedule (WORKSPACE_MANAGE) */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Names this request (1–255 visible ASCII characters): a repeat with the same body within 24 h is answered the first answer again (`Idempotent-Replayed: true`); see docs/api-conventions.md, "Idempotency" */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    deliveryId: string;
                    hookId: number;
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["WebhookDelivery"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{id}/webhooks/{hookId}/ping": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send the endpoint a `webhook.ping` now, signed, logged and retried like any delivery (WORKSPACE_MANAGE) */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Names this request (1–255 visible ASCII characters): a repeat with the same body within 24 h is answered the first answer again (`Idempotent-Replayed: true`); see docs/api-conventions.md, "Idempotency" */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    hookId: number;
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["WebhookDelivery"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{id}/webhooks/{hookId}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A new signing secret, shown in this answer only; the old one signs too for `overlapSeconds` (WORKSPACE_MANAGE) */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Names this request (1–255 visible ASCII characters): a repeat with the same body within 24 h is answered the first answer again (`Idempotent-Replayed: true`); see docs/api-conventions.md, "Idempotency" */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    hookId: number;
                    id: number;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * @description How long the old secret keeps signing beside the new one: 0 to 604800 (7 days), by default 86400 (24 h)
                         * @default 86400
                         */
                        overlapSeconds?: number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Webhook"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/accessible": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Exactly the workspaces you can enter: those that will not produce the 403 "Invalid X-Workspace-Id header" */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Workspace"][];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/recent": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Workspaces you visited (touch, switch), newest first, among those you can still enter */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            archived: boolean;
                            createdAt: string;
                            description: string;
                            id: number;
                            modules: string[];
                            name: string;
                            settings: {
                                [key: string]: unknown;
                            };
                            visitedAt: string;
                        }[];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/validation-rules": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The rules applied when a workspace is created or changed */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/autorunner/api/v1/engines": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Test engines of the workspace (never their tokens) */
        get: {
            parameters: {
                query?: {
                    /** @description 0-based page */
                    page?: number;
                    /** @description Page size, at most 200 */
                    size?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            content: components["schemas"]["TestEngine"][];
                            page: number;
                            size: number;
                            totalElements: number;
                            totalPages: number;
                        };
                    };
                };
            };
        };
        put?: never;
        /** Register a test engine; its token (X-Engine-Token) is in this answer only */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        labels?: string[];
                        name: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            createdAt: string;
                            id: string;
                            labels: string[];
                            name: string;
                            /** @description Its token was made from a password sign-in while its company requires single sign-on: refused until an administrator approves the engine */
                            needsApproval: boolean;
                            registeredBy: number;
                            revoked: boolean;
                            revokedAt: string | null;
                            /**
                             * @description How the maker of its current token was signed in when they made it
                             * @enum {string}
                             */
                            signIn: "password" | "sso";
                            token: string;
                            tokenPrefix: string;
                            tokenRotatedAt: string | null;
                            workspaceId: number;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/autorunner/api/v1/engines/{engineId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One test engine */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    engineId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["TestEngine"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Revoke a test engine; its token stops working at once */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    engineId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/autorunner/api/v1/engines/{engineId}/approve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Let an engine whose token was made from a password sign-in work again where the company requires single sign-on; needs AUTORUNNER_MANAGE and USER_ADMIN_MANAGE */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    engineId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["TestEngine"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/autorunner/api/v1/engines/{engineId}/token/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Replace the token of an engine; the old one stops working at once */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    engineId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            createdAt: string;
                            id: string;
                            labels: string[];
                            name: string;
                            /** @description Its token was made from a password sign-in while its company requires single sign-on: refused until an administrator approves the engine */
                            needsApproval: boolean;
                            registeredBy: number;
                            revoked: boolean;
                            revokedAt: string | null;
                            /**
                             * @description How the maker of its current token was signed in when they made it
                             * @enum {string}
                             */
                            signIn: "password" | "sso";
                            token: string;
                            tokenPrefix: string;
                            tokenRotatedAt: string | null;
                            workspaceId: number;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/autorunner/api/v1/runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Runs of the workspace, newest first (an engine sees its own) */
        get: {
            parameters: {
                query?: {
                    engineId?: string;
                    /** @description 0-based page */
                    page?: number;
                    /** @description Page size, at most 200 */
                    size?: number;
                    status?: "running" | "passed" | "failed" | "error" | "cancelled";
                    testSessionId?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            content: components["schemas"]["EngineRun"][];
                            page: number;
                            size: number;
                            totalElements: number;
                            totalPages: number;
                        };
                    };
                };
            };
        };
        put?: never;
        /** Start a run of the calling engine against a /v1 test session of its workspace */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        externalId?: string;
                        metadata?: {
                            [key: string]: unknown;
                        };
                        name?: string;
                        /** Format: uuid */
                        testSessionId: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["EngineRun"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/autorunner/api/v1/runs/{runId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One run with the results it reported */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    runId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            completedAt: string | null;
                            engineId: string;
                            externalId: string | null;
                            id: string;
                            metadata: {
                                [key: string]: unknown;
                            };
                            name: string | null;
                            results: {
                                durationMs: number | null;
                                notes: string | null;
                                reportedAt: string;
                                status: string;
                                testCaseId: string;
                            }[];
                            resultsReported: number;
                            startedAt: string;
                            /** @enum {string} */
                            status: "running" | "passed" | "failed" | "error" | "cancelled";
                            testSessionId: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/autorunner/api/v1/runs/{runId}/complete": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Complete a run with its outcome; completing again with the same outcome changes nothing */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    runId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "passed" | "failed" | "error" | "cancelled";
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["EngineRun"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/autorunner/api/v1/runs/{runId}/results": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Report one result or an array (at most 1000); they are recorded in the run's test session */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    runId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        durationMs?: number;
                        notes?: string;
                        /** @enum {string} */
                        status: "passed" | "failed" | "blocked" | "skipped" | "retest";
                        testCaseId: string;
                    } | {
                        durationMs?: number;
                        notes?: string;
                        /** @enum {string} */
                        status: "passed" | "failed" | "blocked" | "skipped" | "retest";
                        testCaseId: string;
                    }[];
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            recorded: number;
                            runId: string;
                            testSessionId: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/accessibility/audits": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List accessibility reports (newest first, at most 1000) */
        get: {
            parameters: {
                query?: {
                    deviceId?: string[];
                    from?: string;
                    platform?: string[];
                    sessionId?: string[];
                    status?: ("in_progress" | "completed")[];
                    to?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DfAccessibilityAudit"][];
                    };
                };
            };
        };
        put?: never;
        /** Create a report: on a session (`sessionId`, scanned with .../scans), or of a list of `urls` run on a free browser device in the background */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Names this request (1–255 visible ASCII characters): a repeat with the same body within 24 h is answered the first answer again (`Idempotent-Replayed: true`); see docs/api-conventions.md, "Idempotency" */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name?: string;
                        sessionId: string;
                    } | {
                        deviceId?: string;
                        name?: string;
                        urls: string[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DfAccessibilityAudit"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/accessibility/audits/{auditId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One report */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    auditId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DfAccessibilityAudit"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/accessibility/audits/{auditId}/compare": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Compare a report with an earlier one (`with`) by fingerprint: new here, fixed since, unchanged */
        get: {
            parameters: {
                query: {
                    with: string;
                };
                header?: never;
                path: {
                    auditId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            auditId: string;
                            fixed: components["schemas"]["DfAccessibilityFinding"][];
                            new: components["schemas"]["DfAccessibilityFinding"][];
                            unchanged: components["schemas"]["DfAccessibilityFinding"][];
                            with: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/accessibility/audits/{auditId}/exports": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Request an export (csv, json, or an offline html report); poll it until succeeded */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Names this request (1–255 visible ASCII characters): a repeat with the same body within 24 h is answered the first answer again (`Idempotent-Replayed: true`); see docs/api-conventions.md, "Idempotency" */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    auditId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @enum {string} */
                        format: "csv" | "json" | "html";
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DfAccessibilityExport"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/accessibility/audits/{auditId}/exports/{exportId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One export; a succeeded one carries its download url */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    auditId: string;
                    exportId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DfAccessibilityExport"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/accessibility/audits/{auditId}/exports/{exportId}/download": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An export's file */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    auditId: string;
                    exportId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/accessibility/audits/{auditId}/findings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A report's findings */
        get: {
            parameters: {
                query?: {
                    impact?: ("critical" | "serious" | "moderate" | "minor")[];
                    ruleId?: string[];
                    triage?: ("open" | "confirmed" | "false_positive" | "wont_fix" | "fixed")[];
                };
                header?: never;
                path: {
                    auditId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DfAccessibilityFinding"][];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/accessibility/audits/{auditId}/scans": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A report's scans */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    auditId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DfAccessibilityScan"][];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/accessibility/audits/{auditId}/scans/{scanId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One scan with its findings */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    auditId: string;
                    scanId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            auditId: string;
                            createdAt: string;
                            engine: string;
                            findingCount: number;
                            findings: components["schemas"]["DfAccessibilityFinding"][];
                            hasScreenshot: boolean;
                            hasTree: boolean;
                            id: string;
                            scope: string;
                            screen: {
                                height: number;
                                width: number;
                            } | null;
                            title: string;
                            url: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/accessibility/audits/{auditId}/scans/{scanId}/screenshot": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The scanned screen (PNG) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    auditId: string;
                    scanId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/accessibility/audits/{auditId}/scans/{scanId}/ui-tree": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The UI tree of the scanned screen (as GET /df/api/sessions/{id}/ui-tree answered it then) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    auditId: string;
                    scanId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/accessibility/audits/page": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List accessibility reports, paged */
        get: {
            parameters: {
                query?: {
                    deviceId?: string[];
                    from?: string;
                    /** @description 0-based page */
                    page?: number;
                    platform?: string[];
                    sessionId?: string[];
                    /** @description Page size, at most 200 */
                    size?: number;
                    sortDir?: "asc" | "desc";
                    status?: ("in_progress" | "completed")[];
                    to?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            content: components["schemas"]["DfAccessibilityAudit"][];
                            page: number;
                            size: number;
                            totalElements: number;
                            totalPages: number;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/accessibility/findings/{findingId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One finding */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    findingId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DfAccessibilityFinding"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/accessibility/findings/{findingId}/triage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Set the triage status of a finding (carried to the same fingerprint in later audits) */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    findingId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        reason?: string | null;
                        /** @enum {string} */
                        status: "open" | "confirmed" | "false_positive" | "wont_fix" | "fixed";
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DfAccessibilityFinding"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/df/api/automation/sessions/{sessionId}/test-events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Reported test events in reporting order (the session's content: names, errors and metadata) */
        get: {
            parameters: {
                query?: {
                    /** @description 0-based page */
                    page?: number;
                    size?: number;
                    sortDir?: "asc" | "desc";
                    type?: ("suite_started" | "test_started" | "test_passed" | "test_failed" | "test_skipped" | "suite_finished")[];
                };
                header?: never;
                path: {
                    sessionId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            content: components["schemas"]["DfTestEvent"][];
                            page: number;
                            size: number;
                            totalElements: number;
                            totalPages: number;
                        };
                    };
                };
            };
        };
        put?: never;
        /** Report one test event or a batch (at most 500) */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Names this request (1–255 visible ASCII characters): a repeat with the same body within 24 h is answered the first answer again (`Idempotent-Replayed: true`); see docs/api-conventions.md, "Idempotency" */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    sessionId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        durationMs?: number;
                        error?: {
                            message: string;
                            stack?: string;
                        };
                        metadata?: {
                            [key: string]: unknown;
                        };
                        name: string;
                        suite?: string;
                        /** Format: date-time */
                        timestamp?: string;
                        /** @enum {string} */
                        type: "suite_started" | "test_started" | "test_passed" | "test_failed" | "test_skipped" | "suite_finished";
                    } | {
                        durationMs?: number;
                        error?: {
                            message: string;
                            stack?: string;
                        };
                        metadata?: {
                            [key: string]: unknown;
                        };
                        name: string;
                        suite?: string;
                        /** Format: date-time */
                        timestamp?: string;
                        /** @enum {string} */
                        type: "suite_started" | "test_started" | "test_passed" | "test_failed" | "test_skipped" | "suite_finished";
                    }[];
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            accepted: number;
                            ids: string[];
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/automation/sessions/{sessionId}/test-events/progress": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Execution progress, counted by test (see the module documentation) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    sessionId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DfTestProgress"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/client-config": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Client configuration of the device module */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DfClientConfig"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/client-config/dfctl-manifest": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Where to download dfctl, the command-line client, from this server: version, files with SHA-256, the install command */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DfctlManifest"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/client-config/packages-manifest": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Where to download the client packages (typed API client, WebdriverIO service, Playwright fixture) from this server: versions, tarballs with SHA-256, the install commands */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ClientPackagesManifest"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/dashboard/activity": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Recent activity of the workspace, newest first: sessions, bookings, installs, shares */
        get: {
            parameters: {
                query?: {
                    kind?: string[];
                    /** @description 0-based page */
                    page?: number;
                    /** @description Page size, at most 200 */
                    size?: number;
                    sortDir?: "asc" | "desc";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            content: components["schemas"]["DfActivity"][];
                            page: number;
                            size: number;
                            totalElements: number;
                            totalPages: number;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/dashboard/most-used-devices": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The devices with the most minutes in session over a period (default the last 30 days) */
        get: {
            parameters: {
                query?: {
                    /** @description Start of the range (inclusive; default 30 days before `to`) */
                    from?: string;
                    limit?: number;
                    /** @description End of the range (exclusive; default now) */
                    to?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DfMostUsedDevice"][];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/dashboard/stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Fleet statistics: devices by status, platform and host; sessions running now; bookings today; failures in the last day */
        get: {
            parameters: {
                query?: {
                    /** @description IANA zone the periods are cut in (default UTC) */
                    timeZone?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DfDashboardStats"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/devices": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List devices */
        get: {
            parameters: {
                query?: {
                    excludeType?: ("phone" | "tablet" | "tv" | "watch" | "desktop")[];
                    favorite?: "true" | "false";
                    hubId?: string[];
                    isRealDevice?: "true" | "false";
                    model?: string[];
                    needsAttention?: "true" | "false";
                    nodeName?: string[];
                    osVersion?: string[];
                    /** @description 0-based page */
                    page?: number;
                    platform?: ("android" | "ios" | "web")[];
                    search?: string;
                    sessionType?: ("manual" | "automation" | "debug")[];
                    /** @description Page size, at most 200 */
                    size?: number;
                    sortBy?: "name" | "status" | "platform" | "osVersion" | "model" | "type" | "nodeName" | "hubId" | "lastSeenAt" | "favorite";
                    sortDir?: "asc" | "desc";
                    status?: ("available" | "in_use" | "reserved" | "mending" | "offline" | "maintenance")[];
                    type?: ("phone" | "tablet" | "tv" | "watch" | "desktop")[];
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            content: components["schemas"]["DfDevice"][];
                            page: number;
                            size: number;
                            totalElements: number;
                            totalPages: number;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/devices/{deviceId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One device */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    deviceId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DfDevice"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/devices/{deviceId}/alias": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Set your alias of a device */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    deviceId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        alias: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DfDevice"];
                    };
                };
            };
        };
        post?: never;
        /** Remove your alias of a device */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    deviceId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DfDevice"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/devices/{deviceId}/baseline": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Re-take a device's settings baseline (what every session's end puts back) from its settings now (audited)
         * @description The device as it is now becomes its clean state: animations, font scale, locale, time zone, brightness, stay-awake, radios and location (docs/modules/device-health.md, "A clean device for every session"). 404 for a device not of the caller’s company; 409 `DEVICE_BUSY` while a session holds it or is being set up; 409 `DEVICE_OFFLINE` while it is away; 409 `DEVICE_UNSUPPORTED` for a device whose driver keeps no baseline (browser and iOS devices).
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Names this request (1–255 visible ASCII characters): a repeat with the same body within 24 h is answered the first answer again (`Idempotent-Replayed: true`); see docs/api-conventions.md, "Idempotency" */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    deviceId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DfDeviceBaseline"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/devices/{deviceId}/favorite": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Mark a device as your favorite */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    deviceId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DfDevice"];
                    };
                };
            };
        };
        post?: never;
        /** Unmark a favorite device */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    deviceId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DfDevice"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/devices/{deviceId}/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A device's health and its readings between `from` and `to` (oldest first; the newest 1,440 are kept) */
        get: {
            parameters: {
                query?: {
                    from?: string;
                    to?: string;
                };
                header?: never;
                path: {
                    deviceId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DfDeviceHealthSamples"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/devices/{deviceId}/maintenance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Take a device into maintenance until a time (held: 409 `DEVICE_UNHEALTHY` to every allocation)
         * @description 400 `MAINTENANCE_END_IN_PAST` when `until` is not in the future; 404 for a device not of the caller’s company.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Names this request (1–255 visible ASCII characters): a repeat with the same body within 24 h is answered the first answer again (`Idempotent-Replayed: true`); see docs/api-conventions.md, "Idempotency" */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    deviceId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        reason: string;
                        /**
                         * Format: date-time
                         * @description When the maintenance ends by itself; must be in the future (else 400 `MAINTENANCE_END_IN_PAST`)
                         */
                        until: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            deviceId: string;
                            health: {
                                battery?: {
                                    charging: boolean;
                                    level: number;
                                    temperatureC?: number;
                                };
                                checkedAt: string;
                                reasons: string[];
                                /** @enum {string} */
                                state: "healthy" | "degraded" | "cooling" | "charging" | "quarantined" | "maintenance";
                                storageFreeMb?: number;
                                until?: string;
                            } | null;
                        };
                    };
                };
            };
        };
        /**
         * End a device's maintenance (it comes back in the state its newest reading gives)
         * @description 409 `DEVICE_NOT_IN_MAINTENANCE` when it is not.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    deviceId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            deviceId: string;
                            health: {
                                battery?: {
                                    charging: boolean;
                                    level: number;
                                    temperatureC?: number;
                                };
                                checkedAt: string;
                                reasons: string[];
                                /** @enum {string} */
                                state: "healthy" | "degraded" | "cooling" | "charging" | "quarantined" | "maintenance";
                                storageFreeMb?: number;
                                until?: string;
                            } | null;
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/devices/{deviceId}/move": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Move a device to another host of the company: it is offline until that host reports it, and only that host may speak for it from then on */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Names this request (1–255 visible ASCII characters): a repeat with the same body within 24 h is answered the first answer again (`Idempotent-Replayed: true`); see docs/api-conventions.md, "Idempotency" */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    deviceId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        hostId: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DfDevice"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/devices/{deviceId}/release-quarantine": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Release a quarantined device (healthy until its next reading says otherwise)
         * @description 409 `DEVICE_NOT_QUARANTINED` when it is not.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Names this request (1–255 visible ASCII characters): a repeat with the same body within 24 h is answered the first answer again (`Idempotent-Replayed: true`); see docs/api-conventions.md, "Idempotency" */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    deviceId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            deviceId: string;
                            health: {
                                battery?: {
                                    charging: boolean;
                                    level: number;
                                    temperatureC?: number;
                                };
                                checkedAt: string;
                                reasons: string[];
                                /** @enum {string} */
                                state: "healthy" | "degraded" | "cooling" | "charging" | "quarantined" | "maintenance";
                                storageFreeMb?: number;
                                until?: string;
                            } | null;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/devices/filter-options": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Device counts per filter value */
        get: {
            parameters: {
                query?: {
                    excludeType?: ("phone" | "tablet" | "tv" | "watch" | "desktop")[];
                    favorite?: "true" | "false";
                    hubId?: string[];
                    isRealDevice?: "true" | "false";
                    model?: string[];
                    needsAttention?: "true" | "false";
                    nodeName?: string[];
                    osVersion?: string[];
                    platform?: ("android" | "ios" | "web")[];
                    search?: string;
                    sessionType?: ("manual" | "automation" | "debug")[];
                    status?: ("available" | "in_use" | "reserved" | "mending" | "offline" | "maintenance")[];
                    type?: ("phone" | "tablet" | "tv" | "watch" | "desktop")[];
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DfDeviceFilterOptions"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/files": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The workspace's files, newest first */
        get: {
            parameters: {
                query?: {
                    kind?: "app" | "file";
                    /** @description 0-based page */
                    page?: number;
                    search?: string;
                    /** @description Page size, at most 200 */
                    size?: number;
                    sortDir?: "asc" | "desc";
                    status?: ("pending" | "ready" | "failed")[];
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            content: components["schemas"]["DfFile"][];
                            page: number;
                            size: number;
                            totalElements: number;
                            totalPages: number;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/files/{fileId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One file */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    fileId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DfFile"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Delete a file (a pending multipart upload is aborted; the app version it holds goes too) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    fileId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/files/{fileId}/confirm": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Confirm an upload: size and checksum are checked, app builds are catalogued */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Names this request (1–255 visible ASCII characters): a repeat with the same body within 24 h is answered the first answer again (`Idempotent-Replayed: true`); see docs/api-conventions.md, "Idempotency" */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    fileId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DfFile"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/files/{fileId}/download": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Download: 302 to a short-lived signed URL */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    fileId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Found: the bytes are at the `Location` URL (no credential needed there) until the signature expires */
                302: {
                    headers: {
                        /** @description The signed URL is not to be cached */
                        "cache-control"?: "no-store";
                        /** @description The short-lived signed URL of the bytes */
                        location?: string;
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/files/app-versions/{versionId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One app version */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    versionId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DfAppVersion"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/files/app-versions/{versionId}/tests": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The tests of a test APK version: its instrumentation runner, target package and test methods
         * @description Read from the DEX files of the build: JUnit 4 `@Test` methods (inherited ones included) and JUnit 3 `test*` methods of `TestCase` subclasses, abstract classes skipped. 409 `NOT_A_TEST_APK` for a build without `<instrumentation>` or without tests, and for an iOS build; 422 `DEX_UNREADABLE` for DEX files that cannot be read.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    versionId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DfTestApk"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/files/apps": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The workspace's app catalog, by name */
        get: {
            parameters: {
                query?: {
                    /** @description 0-based page */
                    page?: number;
                    platform?: "android" | "ios";
                    search?: string;
                    /** @description Page size, at most 200 */
                    size?: number;
                    sortDir?: "asc" | "desc";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            content: components["schemas"]["DfApp"][];
                            page: number;
                            size: number;
                            totalElements: number;
                            totalPages: number;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/files/apps/{appId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete an app, its versions and their files (refused while an install of one runs) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    appId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/files/apps/{appId}/versions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Versions of an app, newest first */
        get: {
            parameters: {
                query?: {
                    /** @description 0-based page */
                    page?: number;
                    /** @description Page size, at most 200 */
                    size?: number;
                    sortDir?: "asc" | "desc";
                };
                header?: never;
                path: {
                    appId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            content: components["schemas"]["DfAppVersion"][];
                            page: number;
                            size: number;
                            totalElements: number;
                            totalPages: number;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/files/apps/{appId}/versions/{versionId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete a version and its file (refused while an install of it runs) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    appId: string;
                    versionId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/files/apps/backfill": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Build the catalog from files uploaded before: a long-running operation */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Names this request (1–255 visible ASCII characters): a repeat with the same body within 24 h is answered the first answer again (`Idempotent-Replayed: true`); see docs/api-conventions.md, "Idempotency" */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            operationId: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/files/multipart/{fileId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Abort a multipart upload: every part sent is deleted */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    fileId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/files/multipart/{fileId}/complete": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Join the parts (every part once, with its ETag) and confirm the file */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Names this request (1–255 visible ASCII characters): a repeat with the same body within 24 h is answered the first answer again (`Idempotent-Replayed: true`); see docs/api-conventions.md, "Idempotency" */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    fileId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        parts: {
                            etag: string;
                            partNumber: number;
                        }[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DfFile"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/files/multipart/{fileId}/part/{partNumber}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A signed PUT for one part; its answer's ETag header is what complete needs (ask again to retry a part) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    fileId: string;
                    partNumber: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            expiresAt: string;
                            /** @enum {string} */
                            method: "PUT";
                            url: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/files/multipart/initiate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Start a multipart upload; parts of partSize bytes (5–512 MiB, the last one shorter) */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Names this request (1–255 visible ASCII characters): a repeat with the same body within 24 h is answered the first answer again (`Idempotent-Replayed: true`); see docs/api-conventions.md, "Idempotency" */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @default application/octet-stream */
                        contentType?: string;
                        name: string;
                        partSize?: number;
                        sha256?: string;
                        size: number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            expiresAt: string;
                            fileId: string;
                            partCount: number;
                            partSize: number;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/files/presigned-upload": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Start an upload: PUT the bytes to the answered URL (with its headers), then confirm */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Names this request (1–255 visible ASCII characters): a repeat with the same body within 24 h is answered the first answer again (`Idempotent-Replayed: true`); see docs/api-conventions.md, "Idempotency" */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @default application/octet-stream */
                        contentType?: string;
                        name: string;
                        sha256?: string;
                        size: number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            expiresAt: string;
                            fileId: string;
                            headers: {
                                [key: string]: string;
                            };
                            /** @enum {string} */
                            method: "PUT";
                            url: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/fleet/health-rules": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The company's health thresholds (the defaults until it sets its own) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DfHealthRules"];
                    };
                };
            };
        };
        /**
         * Change the company's health thresholds (audited)
         * @description A bound out of range (`failedSessionsMax` too: an integer 0–100), or a `rebootAllowed` or `fastPathDownDegrades` that is not a boolean, is refused with 400 `VALIDATION_FAILED` naming the field, and nothing changes.
         */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["DfHealthRulesInput"];
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DfHealthRules"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/hosts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The company's enrolled hosts, with their device counts */
        get: {
            parameters: {
                query?: {
                    includeRevoked?: "true" | "false";
                    /** @description 0-based page */
                    page?: number;
                    /** @description Page size, at most 200 */
                    size?: number;
                    sortDir?: "asc" | "desc";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            content: components["schemas"]["DfHost"][];
                            page: number;
                            size: number;
                            totalElements: number;
                            totalPages: number;
                        };
                    };
                };
            };
        };
        put?: never;
        /** Enrol a device host; its token (for the agent config, hostToken) is in this answer only */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Names this request (1–255 visible ASCII characters): a repeat with the same body within 24 h is answered the first answer again (`Idempotent-Replayed: true`); see docs/api-conventions.md, "Idempotency" */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name: string;
                        workspaceIds?: number[] | null;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DfHostEnrolment"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/hosts/{hostId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One host */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    hostId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DfHost"];
                    };
                };
            };
        };
        /** Rename a host or change the workspaces its devices serve (null: every workspace) */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    hostId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name?: string;
                        workspaceIds?: number[] | null;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DfHost"];
                    };
                };
            };
        };
        post?: never;
        /** Revoke a host: its devices go offline, their sessions end, its hellos are refused */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    hostId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/hosts/{hostId}/token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A new token for the host; the old one stops working at its next hello */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Names this request (1–255 visible ASCII characters): a repeat with the same body within 24 h is answered the first answer again (`Idempotent-Replayed: true`); see docs/api-conventions.md, "Idempotency" */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    hostId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DfHostEnrolment"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** API keys of the workspace (never their values) */
        get: {
            parameters: {
                query?: {
                    /** @description 0-based page */
                    page?: number;
                    /** @description Page size, at most 200 */
                    size?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            content: components["schemas"]["DfApiKey"][];
                            page: number;
                            size: number;
                            totalElements: number;
                            totalPages: number;
                        };
                    };
                };
            };
        };
        put?: never;
        /** New API key; its value is in this answer only */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Names this request (1–255 visible ASCII characters): a repeat with the same body within 24 h is answered the first answer again (`Idempotent-Replayed: true`); see docs/api-conventions.md, "Idempotency" */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            createdAt: string;
                            id: string;
                            key: string;
                            name: string;
                            prefix: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/keys/{keyId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One API key (never its value) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    keyId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DfApiKey"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Revoke one API key; it stops working at once */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    keyId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/keys/{keyId}/approve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Let an API key made from a password sign-in work again where the company requires single sign-on; needs USER_ADMIN_MANAGE */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Names this request (1–255 visible ASCII characters): a repeat with the same body within 24 h is answered the first answer again (`Idempotent-Replayed: true`); see docs/api-conventions.md, "Idempotency" */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    keyId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DfApiKey"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/operations/{operationId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Poll a long-running operation until its state is final */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    operationId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DfOperation"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/quotas": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The company's plan limits (null: no limit) and live usage */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DfQuotas"];
                    };
                };
            };
        };
        /** Change the company's plan: its name and limits (company administrators only; null removes a limit, an absent key keeps it) */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        limits?: {
                            apiKeys?: number | null;
                            concurrentSessions?: number | null;
                            reservationHoursPerMonth?: number | null;
                            sessionMinutesPerMonth?: number | null;
                            storageBytes?: number | null;
                        };
                        plan?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DfQuotas"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/reports/device-usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Minutes in session per device and period, and utilisation as a share of online time (JSON or CSV) */
        get: {
            parameters: {
                query?: {
                    deviceId?: string[];
                    /** @description `csv` (or `Accept: text/csv`) answers the rows as CSV */
                    format?: "json" | "csv";
                    /** @description Start of the range (inclusive; default 30 days before `to`) */
                    from?: string;
                    groupBy?: "day" | "week";
                    /** @description IANA zone the periods are cut in (default UTC) */
                    timeZone?: string;
                    /** @description End of the range (exclusive; default now) */
                    to?: string;
                    userId?: number[];
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            from: string;
                            /** @enum {string} */
                            groupBy: "day" | "week";
                            rows: components["schemas"]["DfDeviceUsageRow"][];
                            timeZone: string;
                            to: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/reports/reservations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Bookings per period: booked, used, no-shows, cancelled (JSON or CSV) */
        get: {
            parameters: {
                query?: {
                    deviceId?: string[];
                    /** @description `csv` (or `Accept: text/csv`) answers the rows as CSV */
                    format?: "json" | "csv";
                    /** @description Start of the range (inclusive; default 30 days before `to`) */
                    from?: string;
                    groupBy?: "day" | "week";
                    /** @description IANA zone the periods are cut in (default UTC) */
                    timeZone?: string;
                    /** @description End of the range (exclusive; default now) */
                    to?: string;
                    userId?: number[];
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            from: string;
                            /** @enum {string} */
                            groupBy: "day" | "week";
                            rows: components["schemas"]["DfReservationReportRow"][];
                            timeZone: string;
                            to: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/reports/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Sessions per period: count, outcome, duration; optionally by user, build, device or type (JSON or CSV) */
        get: {
            parameters: {
                query?: {
                    buildName?: string[];
                    by?: "user" | "build" | "device" | "type";
                    deviceId?: string[];
                    /** @description `csv` (or `Accept: text/csv`) answers the rows as CSV */
                    format?: "json" | "csv";
                    /** @description Start of the range (inclusive; default 30 days before `to`) */
                    from?: string;
                    groupBy?: "day" | "week";
                    /** @description IANA zone the periods are cut in (default UTC) */
                    timeZone?: string;
                    /** @description End of the range (exclusive; default now) */
                    to?: string;
                    type?: ("manual" | "automation" | "debug")[];
                    userId?: number[];
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            from: string;
                            /** @enum {string} */
                            groupBy: "day" | "week";
                            rows: components["schemas"]["DfSessionReportRow"][];
                            timeZone: string;
                            to: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/reservations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List reservations of the workspace */
        get: {
            parameters: {
                query?: {
                    deviceId?: string[];
                    from?: string;
                    mine?: "true" | "false";
                    /** @description 0-based page */
                    page?: number;
                    /** @description Page size, at most 200 */
                    size?: number;
                    sortDir?: "asc" | "desc";
                    status?: ("scheduled" | "active" | "ended" | "cancelled" | "expired")[];
                    to?: string;
                    userId?: string[];
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            content: components["schemas"]["DfReservation"][];
                            page: number;
                            size: number;
                            totalElements: number;
                            totalPages: number;
                        };
                    };
                };
            };
        };
        put?: never;
        /**
         * Book a device for a time range
         * @description Made into a maintenance of the device under way, the booking is kept and answered with its `maintenanceConflict` (and the `reservation.maintenance_conflict` webhook). 404 for a device the caller may not see.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Names this request (1–255 visible ASCII characters): a repeat with the same body within 24 h is answered the first answer again (`Idempotent-Replayed: true`); see docs/api-conventions.md, "Idempotency" */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        deviceId: string;
                        /** Format: date-time */
                        endAt: string;
                        note?: string | null;
                        /** Format: date-time */
                        startAt: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DfReservation"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/reservations/{reservationId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One reservation */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    reservationId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DfReservation"];
                    };
                };
            };
        };
        /**
         * Change the range or note of a reservation
         * @description Moved into a maintenance of the device under way, it is told (`maintenanceConflict`, the `reservation.maintenance_conflict` webhook); moved out of it, the warning is lifted.
         */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    reservationId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** Format: date-time */
                        endAt?: string;
                        note?: string | null;
                        /** Format: date-time */
                        startAt?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DfReservation"];
                    };
                };
            };
        };
        post?: never;
        /** Cancel a scheduled reservation (an active one is ended) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    reservationId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DfReservation"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/reservations/{reservationId}/end": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** End an active reservation (frees the device at once) */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Names this request (1–255 visible ASCII characters): a repeat with the same body within 24 h is answered the first answer again (`Idempotent-Replayed: true`); see docs/api-conventions.md, "Idempotency" */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    reservationId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DfReservation"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/reservations/{reservationId}/rejoin": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Open a session on the reserved device again (its holder) */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Names this request (1–255 visible ASCII characters): a repeat with the same body within 24 h is answered the first answer again (`Idempotent-Replayed: true`); see docs/api-conventions.md, "Idempotency" */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    reservationId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DfSession"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/session-invites/{token}/accept": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Accept an invitation or link: the caller gets its access to that one session. Needs no X-Workspace-Id (the token names the session); answers the session's workspace */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Names this request (1–255 visible ASCII characters): a repeat with the same body within 24 h is answered the first answer again (`Idempotent-Replayed: true`); see docs/api-conventions.md, "Idempotency" */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    token: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            access: "view" | "control";
                            sessionId: string;
                            workspaceId: number;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List sessions of the workspace */
        get: {
            parameters: {
                query?: {
                    buildName?: string;
                    deviceId?: string[];
                    outcome?: ("passed" | "failed")[];
                    ownerId?: string[];
                    /** @description 0-based page */
                    page?: number;
                    search?: string;
                    /** @description Page size, at most 200 */
                    size?: number;
                    sortBy?: "startedAt" | "endedAt" | "name" | "status" | "lastActivityAt";
                    sortDir?: "asc" | "desc";
                    status?: ("starting" | "active" | "ended" | "failed")[];
                    type?: ("manual" | "automation" | "debug")[];
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            content: components["schemas"]["DfSession"][];
                            page: number;
                            size: number;
                            totalElements: number;
                            totalPages: number;
                        };
                    };
                };
            };
        };
        put?: never;
        /** Open a session on a device (answers once the device is ready) */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Names this request (1–255 visible ASCII characters): a repeat with the same body within 24 h is answered the first answer again (`Idempotent-Replayed: true`); see docs/api-conventions.md, "Idempotency" */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        buildName?: string;
                        deviceId: string;
                        metadata?: {
                            [key: string]: unknown;
                        };
                        name?: string;
                        /** @description Record the screen from the start; absent: the workspace's session defaults (automation sessions record unless recordAutomation is off) */
                        record?: boolean;
                        /** @enum {string} */
                        type?: "manual" | "automation" | "debug";
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DfSession"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/sessions/{sessionId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One session */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    sessionId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DfSession"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** End a session (200 with it; again: 200, nothing changes); ?purge=true removes an ended one with its timeline and artifacts (df:session:purge, 204) */
        delete: {
            parameters: {
                query?: {
                    purge?: "true" | "false";
                };
                header?: never;
                path: {
                    sessionId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DfSession"];
                    };
                };
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/sessions/{sessionId}/accessibility/audits": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Reports of a session */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    sessionId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DfAccessibilityAudit"][];
                    };
                };
            };
        };
        put?: never;
        /** Start a report on the session */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Names this request (1–255 visible ASCII characters): a repeat with the same body within 24 h is answered the first answer again (`Idempotent-Replayed: true`); see docs/api-conventions.md, "Idempotency" */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    sessionId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DfAccessibilityAudit"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/sessions/{sessionId}/accessibility/audits/{auditId}/complete": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Close the report */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Names this request (1–255 visible ASCII characters): a repeat with the same body within 24 h is answered the first answer again (`Idempotent-Replayed: true`); see docs/api-conventions.md, "Idempotency" */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    auditId: string;
                    sessionId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DfAccessibilityAudit"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/sessions/{sessionId}/accessibility/audits/{auditId}/scans": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Scan the session's current screen */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Names this request (1–255 visible ASCII characters): a repeat with the same body within 24 h is answered the first answer again (`Idempotent-Replayed: true`); see docs/api-conventions.md, "Idempotency" */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    auditId: string;
                    sessionId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            auditId: string;
                            createdAt: string;
                            engine: string;
                            findingCount: number;
                            findings: components["schemas"]["DfAccessibilityFinding"][];
                            hasScreenshot: boolean;
                            hasTree: boolean;
                            id: string;
                            scope: string;
                            screen: {
                                height: number;
                                width: number;
                            } | null;
                            title: string;
                            url: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/sessions/{sessionId}/activities": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Activity timeline, oldest first */
        get: {
            parameters: {
                query?: {
                    kind?: string[];
                    /** @description 0-based page */
                    page?: number;
                    /** @description Page size, at most 200 */
                    size?: number;
                    sortDir?: "asc" | "desc";
                };
                header?: never;
                path: {
                    sessionId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            content: components["schemas"]["DfSessionActivity"][];
                            page: number;
                            size: number;
                            totalElements: number;
                            totalPages: number;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/sessions/{sessionId}/activity": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Record an activity (a note or a custom step) on the timeline */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Names this request (1–255 visible ASCII characters): a repeat with the same body within 24 h is answered the first answer again (`Idempotent-Replayed: true`); see docs/api-conventions.md, "Idempotency" */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    sessionId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        detail?: {
                            [key: string]: unknown;
                        };
                        /**
                         * @default custom
                         * @enum {string}
                         */
                        kind?: "note" | "custom";
                        message: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            kind: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/sessions/{sessionId}/app-helpers/open": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Open a helper: the app store (optionally at an app), the settings, an app’s settings, developer options, Wi-Fi settings, or launch an app */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Names this request (1–255 visible ASCII characters): a repeat with the same body within 24 h is answered the first answer again (`Idempotent-Replayed: true`); see docs/api-conventions.md, "Idempotency" */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    sessionId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @enum {string} */
                        helper: "play-store" | "settings" | "app-settings" | "launch-app" | "developer-options" | "wifi-settings";
                        packageName?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            helper: string;
                            packageName?: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/sessions/{sessionId}/apps": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Apps installed on the device */
        get: {
            parameters: {
                query?: {
                    thirdPartyOnly?: "true" | "false";
                };
                header?: never;
                path: {
                    sessionId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            apps: components["schemas"]["DfDeviceApp"][];
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/sessions/{sessionId}/apps/install": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Install an app: multipart/form-data with a "file" part (an APK, at most 512 MiB) → 201; or JSON {versionId} or {fileId} of the catalog → 202 {operationId} (poll the Location). It is uninstalled when the session ends */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Names this request (1–255 visible ASCII characters): a repeat with the same body within 24 h is answered the first answer again (`Idempotent-Replayed: true`); see docs/api-conventions.md, "Idempotency" */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    sessionId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            packageNames: string[];
                            sha256: string;
                            size: number;
                        };
                    };
                };
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            operationId: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/sessions/{sessionId}/apps/presence": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Whether each app is installed */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Names this request (1–255 visible ASCII characters): a repeat with the same body within 24 h is answered the first answer again (`Idempotent-Replayed: true`); see docs/api-conventions.md, "Idempotency" */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    sessionId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        packageNames: string[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            presence: {
                                [key: string]: boolean;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/sessions/{sessionId}/apps/uninstall": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Uninstall an app */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Names this request (1–255 visible ASCII characters): a repeat with the same body within 24 h is answered the first answer again (`Idempotent-Replayed: true`); see docs/api-conventions.md, "Idempotency" */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    sessionId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        packageName: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            packageName: string;
                            uninstalled: boolean;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/sessions/{sessionId}/artifacts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Artifacts of a session */
        get: {
            parameters: {
                query?: {
                    type?: ("screenshot" | "log" | "recording")[];
                };
                header?: never;
                path: {
                    sessionId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DfSessionArtifact"][];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/sessions/{sessionId}/artifacts/{artifactId}/download": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The bytes of one artifact */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    artifactId: string;
                    sessionId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/sessions/{sessionId}/debug-capabilities": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** What debugging the session's device offers, and what the caller was granted */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    sessionId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DfDebugCapabilities"];
                    };
                };
            };
        };
        put?: never;
        /** Request debug access over protocols (recorded on the timeline and in the audit history) */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Names this request (1–255 visible ASCII characters): a repeat with the same body within 24 h is answered the first answer again (`Idempotent-Replayed: true`); see docs/api-conventions.md, "Idempotency" */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    sessionId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        protocols: ("adb" | "jdwp" | "tcp_forward" | "cdp" | "usbmux" | "lldb_rsp" | "webkit_inspector")[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DfDebugCapabilities"];
                    };
                };
            };
        };
        /** Withdraw debug access (the caller's own, or another user's for the session's owner and session managers); open tunnels close at once */
        delete: {
            parameters: {
                query?: {
                    protocol?: ("adb" | "jdwp" | "tcp_forward" | "cdp" | "usbmux" | "lldb_rsp" | "webkit_inspector") | ("adb" | "jdwp" | "tcp_forward" | "cdp" | "usbmux" | "lldb_rsp" | "webkit_inspector")[];
                    userId?: number;
                };
                header?: never;
                path: {
                    sessionId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/sessions/{sessionId}/debug-targets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** What a debugger can attach to on the session's device */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    sessionId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            targets: components["schemas"]["DfDebugTarget"][];
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/sessions/{sessionId}/device/control": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send one control action (tap, longPress, swipe, pinch, text, key, home, back, rotate, openUrl) */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Names this request (1–255 visible ASCII characters): a repeat with the same body within 24 h is answered the first answer again (`Idempotent-Replayed: true`); see docs/api-conventions.md, "Idempotency" */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    sessionId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @enum {string} */
                        action: "tap";
                        x: number;
                        y: number;
                    } | {
                        /** @enum {string} */
                        action: "longPress";
                        durationMs?: number;
                        x: number;
                        y: number;
                    } | {
                        /** @enum {string} */
                        action: "swipe";
                        durationMs?: number;
                        x1: number;
                        x2: number;
                        y1: number;
                        y2: number;
                    } | {
                        /** @enum {string} */
                        action: "pinch";
                        durationMs?: number;
                        fromDistance: number;
                        toDistance: number;
                        x: number;
                        y: number;
                    } | {
                        /** @enum {string} */
                        action: "text";
                        text: string;
                    } | {
                        /** @enum {string} */
                        action: "key";
                        key: string;
                    } | {
                        /** @enum {string} */
                        action: "home";
                    } | {
                        /** @enum {string} */
                        action: "back";
                    } | {
                        /** @enum {string} */
                        action: "rotate";
                        /** @enum {string} */
                        orientation: "portrait" | "landscape";
                    } | {
                        /** @enum {string} */
                        action: "openUrl";
                        /** Format: uri */
                        url: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            action: string;
                            /** @enum {boolean} */
                            ok: true;
                            orientation?: string;
                            url?: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/sessions/{sessionId}/evidence": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The session's evidence: its record, timeline, WebDriver command log, artifacts by SHA-256 and chained events, signed with the audit key (content access and AUDIT_READ) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    sessionId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description One JSON document (qa-session-evidence/1) that `dfctl audit verify` checks offline */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DfSessionEvidence"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/sessions/{sessionId}/files": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Browse a folder of the device */
        get: {
            parameters: {
                query?: {
                    path?: string;
                };
                header?: never;
                path: {
                    sessionId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            entries: components["schemas"]["DfDeviceFile"][];
                            path: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Delete a file or folder of the device */
        delete: {
            parameters: {
                query: {
                    path: string;
                };
                header?: never;
                path: {
                    sessionId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            deleted: boolean;
                            path: string;
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/sessions/{sessionId}/files/pull": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Download a file from the device (the bytes) */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Names this request (1–255 visible ASCII characters): a repeat with the same body within 24 h is answered the first answer again (`Idempotent-Replayed: true`); see docs/api-conventions.md, "Idempotency" */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    sessionId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        path: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/sessions/{sessionId}/files/push": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Push a file: multipart/form-data with a "path" field (absolute, on the device) and a "file" part (at most 512 MiB) */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Names this request (1–255 visible ASCII characters): a repeat with the same body within 24 h is answered the first answer again (`Idempotent-Replayed: true`); see docs/api-conventions.md, "Idempotency" */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    sessionId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            path: string;
                            sha256: string;
                            size: number;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/sessions/{sessionId}/folders": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create a folder on the device (and its parents) */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Names this request (1–255 visible ASCII characters): a repeat with the same body within 24 h is answered the first answer again (`Idempotent-Replayed: true`); see docs/api-conventions.md, "Idempotency" */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    sessionId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        path: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            path: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/sessions/{sessionId}/invitations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Invitations of coworkers to the session (not revoked) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    sessionId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DfSessionInvitation"][];
                    };
                };
            };
        };
        put?: never;
        /** Invite a coworker (by userId or email; mailed a link) or create a shareable link (its token and URL are in this answer only) */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Names this request (1–255 visible ASCII characters): a repeat with the same body within 24 h is answered the first answer again (`Idempotent-Replayed: true`); see docs/api-conventions.md, "Idempotency" */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    sessionId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @enum {string} */
                        access: "view" | "control";
                        userId: number;
                    } | {
                        /** @enum {string} */
                        access: "view" | "control";
                        email: string;
                    } | {
                        /** @enum {string} */
                        access: "view" | "control";
                        /** Format: date-time */
                        expiresAt?: string;
                        /** @enum {boolean} */
                        link: true;
                        maxUses?: number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DfSessionInvitationCreated"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/sessions/{sessionId}/invitations/{invitationId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke a coworker's invitation: the access it gave ends at once */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    invitationId: string;
                    sessionId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/sessions/{sessionId}/invitations/links": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Shareable links of the session (not revoked; never their tokens) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    sessionId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DfSessionInvitation"][];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/sessions/{sessionId}/invitations/links/{linkId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke a shareable link: nobody can accept it any more, and the access it gave ends */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    linkId: string;
                    sessionId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/sessions/{sessionId}/logs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Device logs (console, errors, network failures) */
        get: {
            parameters: {
                query?: {
                    afterSeq?: number;
                };
                header?: never;
                path: {
                    sessionId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            entries: {
                                at: string;
                                level: string;
                                seq: number;
                                source: string;
                                text: string;
                            }[];
                            lastSeq: number;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/sessions/{sessionId}/metadata": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Replace the metadata of a session */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    sessionId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        metadata: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DfSession"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/sessions/{sessionId}/name": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Rename a session */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    sessionId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DfSession"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/sessions/{sessionId}/notes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Notes of a session */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    sessionId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            notes: string;
                        };
                    };
                };
            };
        };
        /** Write the notes of a session */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    sessionId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        notes: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            notes: string;
                        };
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/sessions/{sessionId}/outcome": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Set the session's test outcome (its runner's verdict; also after the session ended) */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    sessionId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @enum {string} */
                        outcome: "passed" | "failed";
                        reason?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DfSession"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/sessions/{sessionId}/recording/start": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Start recording the screen */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Names this request (1–255 visible ASCII characters): a repeat with the same body within 24 h is answered the first answer again (`Idempotent-Replayed: true`); see docs/api-conventions.md, "Idempotency" */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    sessionId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            frames: number;
                            lastArtifactId: string | null;
                            recording: boolean;
                            recordingId: string | null;
                            startedAt: string | null;
                            truncated: boolean;
                            video: {
                                bytes: number;
                                durationMs: number;
                                expired: boolean;
                                expiredAt: string | null;
                                /** @enum {string} */
                                format: "mp4";
                            } | null;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/sessions/{sessionId}/recording/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Recording status */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    sessionId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            frames: number;
                            lastArtifactId: string | null;
                            recording: boolean;
                            recordingId: string | null;
                            startedAt: string | null;
                            truncated: boolean;
                            video: {
                                bytes: number;
                                durationMs: number;
                                expired: boolean;
                                expiredAt: string | null;
                                /** @enum {string} */
                                format: "mp4";
                            } | null;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/sessions/{sessionId}/recording/stop": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Stop recording and keep it as an artifact */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Names this request (1–255 visible ASCII characters): a repeat with the same body within 24 h is answered the first answer again (`Idempotent-Replayed: true`); see docs/api-conventions.md, "Idempotency" */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    sessionId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            frames: number;
                            lastArtifactId: string | null;
                            recording: boolean;
                            recordingId: string | null;
                            startedAt: string | null;
                            truncated: boolean;
                            video: {
                                bytes: number;
                                durationMs: number;
                                expired: boolean;
                                expiredAt: string | null;
                                /** @enum {string} */
                                format: "mp4";
                            } | null;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/sessions/{sessionId}/replay": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Replay: recorded frames with the activity timeline */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    sessionId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            activities: components["schemas"]["DfSessionActivity"][];
                            recordings: {
                                frames: {
                                    at: string;
                                    index: number;
                                    url: string;
                                }[];
                                recordingId: string;
                                startedAt: string;
                                truncated: boolean;
                            }[];
                            sessionId: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/sessions/{sessionId}/replay/{recordingId}/frames/{index}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One recorded frame (JPEG) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    index: number;
                    recordingId: string;
                    sessionId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description The frame */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "image/jpeg": string;
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/sessions/{sessionId}/screenshot": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Capture the current screen (the image itself; kept as an artifact) */
        get: {
            parameters: {
                query?: {
                    /** @description Default: the workspace session defaults (png) */
                    format?: "png" | "jpeg";
                };
                header?: never;
                path: {
                    sessionId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description The screen, as PNG or JPEG */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "image/jpeg": string;
                        "image/png": string;
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/sessions/{sessionId}/storage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Storage the session uses */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    sessionId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            artifacts: number;
                            bytes: number;
                            byType: {
                                [key: string]: {
                                    artifacts: number;
                                    bytes: number;
                                };
                            };
                            sessionId: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/sessions/{sessionId}/ui-tree": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** UI element tree (the DOM with roles for a browser device) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    sessionId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            root: components["schemas"]["UiNode"];
                            title: string;
                            url: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/sessions/{sessionId}/video": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The session's video (its latest recording's; MP4, H.264); answers Range requests with 206 */
        get: {
            parameters: {
                query?: {
                    download?: "true" | "false";
                };
                header?: never;
                path: {
                    sessionId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description The whole video */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "video/mp4": string;
                    };
                };
                /** @description The asked bytes of the video */
                206: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "video/mp4": string;
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/sessions/{sessionId}/video/chapters": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The session's timeline as WebVTT chapters of its video (its latest) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    sessionId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description WebVTT */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/vtt": string;
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/sessions/{sessionId}/video/link": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A signed, expiring link to the session's video (its latest; for a <video> element or a download; it answers Range requests) */
        get: {
            parameters: {
                query?: {
                    download?: "true" | "false";
                };
                header?: never;
                path: {
                    sessionId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            expiresAt: string;
                            url: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/sessions/{sessionId}/videos": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The session's videos, one per recording that produced one, oldest first (the last is what `.../video` serves) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    sessionId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            sessionId: string;
                            videos: components["schemas"]["DfSessionVideo"][];
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/sessions/{sessionId}/videos/{recordingId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One recording's video (MP4, H.264); answers Range requests with 206 */
        get: {
            parameters: {
                query?: {
                    download?: "true" | "false";
                };
                header?: never;
                path: {
                    recordingId: string;
                    sessionId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description The whole video */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "video/mp4": string;
                    };
                };
                /** @description The asked bytes of the video */
                206: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "video/mp4": string;
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/sessions/{sessionId}/videos/{recordingId}/chapters": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The session's timeline as WebVTT chapters of one recording's video, placed from that recording's start */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    recordingId: string;
                    sessionId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description WebVTT */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/vtt": string;
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/sessions/{sessionId}/videos/{recordingId}/link": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A signed, expiring link to one recording's video (it answers Range requests) */
        get: {
            parameters: {
                query?: {
                    download?: "true" | "false";
                };
                header?: never;
                path: {
                    recordingId: string;
                    sessionId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            expiresAt: string;
                            url: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/sessions/{sessionId}/viewers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Who watches the session now (one entry per user) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    sessionId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DfSessionViewer"][];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/sessions/{sessionId}/viewers/{userId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Disconnect a user's viewers at once and withdraw their access to the session */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    sessionId: string;
                    userId: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            disconnected: number;
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/sessions/{sessionId}/webdriver-log": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The WebDriver command log of a session: every command with its element, duration and outcome (JSON, or text with format=text) */
        get: {
            parameters: {
                query?: {
                    /** @description Answer as an attachment to save */
                    download?: "true" | "false";
                    format?: "json" | "text";
                };
                header?: never;
                path: {
                    sessionId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["WebDriverCommandLog"] | string;
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/sessions/active": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's active sessions */
        get: {
            parameters: {
                query?: {
                    /** @description 0-based page */
                    page?: number;
                    /** @description Page size, at most 200 */
                    size?: number;
                    sortDir?: "asc" | "desc";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            content: components["schemas"]["DfSession"][];
                            page: number;
                            size: number;
                            totalElements: number;
                            totalPages: number;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/sessions/builds": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Builds (sessions grouped by build name) */
        get: {
            parameters: {
                query?: {
                    /** @description 0-based page */
                    page?: number;
                    /** @description Page size, at most 200 */
                    size?: number;
                    sortDir?: "asc" | "desc";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            content: {
                                activeSessions: number;
                                buildName: string;
                                failedSessions: number;
                                firstStartedAt: string | null;
                                lastStartedAt: string | null;
                                sessions: number;
                            }[];
                            page: number;
                            size: number;
                            totalElements: number;
                            totalPages: number;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/sessions/builds/{buildName}/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Sessions of one build */
        get: {
            parameters: {
                query?: {
                    /** @description 0-based page */
                    page?: number;
                    /** @description Page size, at most 200 */
                    size?: number;
                    sortDir?: "asc" | "desc";
                };
                header?: never;
                path: {
                    buildName: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            content: components["schemas"]["DfSession"][];
                            page: number;
                            size: number;
                            totalElements: number;
                            totalPages: number;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/sessions/company/active": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Active sessions across the company */
        get: {
            parameters: {
                query?: {
                    /** @description 0-based page */
                    page?: number;
                    /** @description Page size, at most 200 */
                    size?: number;
                    sortDir?: "asc" | "desc";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            content: components["schemas"]["DfSession"][];
                            page: number;
                            size: number;
                            totalElements: number;
                            totalPages: number;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/sessions/stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Session statistics of the workspace */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            active: number;
                            averageDurationSeconds: number;
                            byStatus: {
                                [key: string]: number;
                            };
                            byType: {
                                [key: string]: number;
                            };
                            total: number;
                            totalDurationSeconds: number;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/settings/session-defaults": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The workspace's session defaults (the configuration's until set) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DfSessionDefaults"];
                    };
                };
            };
        };
        /** Change the workspace's session defaults (new sessions take them; audited) */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        idleTimeoutSeconds: number;
                        maxSessionSeconds: number;
                        /** @default true */
                        recordAutomation?: boolean;
                        recordByDefault: boolean;
                        /** @enum {string} */
                        screenshotFormat: "png" | "jpeg";
                        /** @default null */
                        videoRetentionDays?: number | null;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DfSessionDefaults"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/test-runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The workspace’s test runs, newest first */
        get: {
            parameters: {
                query?: {
                    /** @description Runs queued at or after */
                    from?: string;
                    /** @description 0-based page */
                    page?: number;
                    /** @description Page size, at most 200 */
                    size?: number;
                    sortDir?: "asc" | "desc";
                    state?: ("queued" | "running" | "passed" | "failed" | "error" | "cancelled")[];
                    /** @description Runs queued before */
                    to?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            content: components["schemas"]["DfTestRunSummary"][];
                            page: number;
                            size: number;
                            totalElements: number;
                            totalPages: number;
                        };
                    };
                };
            };
        };
        put?: never;
        /**
         * Start a test run: the test APK’s selected tests sharded over the matching devices
         * @description Refused without writing anything: 404 for a version or a `projectId` not in the workspace, 403 `FORBIDDEN` for a `projectId` without TMT_WRITE, 409 `NOT_A_TEST_APK`, 422 `NO_TESTS_SELECTED`, 409 `NO_MATCHING_DEVICES` (no available Android device the caller may use matches), 409 `DEVICE_UNHEALTHY` (every one that matches is held by its health, the reason named), 403 `QUOTA_EXCEEDED` (`count` above the plan’s concurrent sessions).
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Names this request (1–255 visible ASCII characters): a repeat with the same body within 24 h is answered the first answer again (`Idempotent-Replayed: true`); see docs/api-conventions.md, "Idempotency" */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The catalogued app version under test */
                        appVersionId: string;
                        devices: {
                            count?: number;
                            hostIds?: string[];
                            maxOsVersion?: string;
                            minOsVersion?: string;
                            models?: string[];
                            /** @enum {string} */
                            platform: "android" | "ios";
                            tags?: string[];
                        };
                        name?: string;
                        /**
                         * Format: uuid
                         * @description A test-management project of the workspace: the run files its results as a new test session there when it ends (needs TMT_WRITE)
                         */
                        projectId?: string;
                        strategy?: {
                            /** @description Tests per `am instrument` launch (default 20) */
                            batchSize?: number;
                            /** @description `pm clear` the app before each test */
                            clearPackageData?: boolean;
                            failFast?: boolean;
                            /** @description Tests whose past pass rate is below this run twice from the start */
                            flakyThreshold?: number | null;
                            /** @description Attempts after a failed one, each on another device where there is one (default 1) */
                            retries?: number;
                            /** @description The run ends in error past this (default 3600) */
                            runTimeoutSeconds?: number;
                            /**
                             * @description `duration` (default): longest first on earlier runs’ durations; `uniform`: dealt round-robin
                             * @enum {string}
                             */
                            sharding?: "duration" | "uniform";
                            /** @description A test running longer has hung (default 600) */
                            testTimeoutSeconds?: number;
                        };
                        tests?: {
                            annotations?: string[];
                            classes?: string[];
                            namePattern?: string;
                            notClasses?: string[];
                            packages?: string[];
                        };
                        /** @description The catalogued test APK version */
                        testVersionId: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DfTestRunAccepted"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/test-runs/{runId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One test run with its counts and shards */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    runId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DfTestRun"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/test-runs/{runId}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Cancel a run: its devices stop their tests and are given back */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Names this request (1–255 visible ASCII characters): a repeat with the same body within 24 h is answered the first answer again (`Idempotent-Replayed: true`); see docs/api-conventions.md, "Idempotency" */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    runId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DfTestRunAccepted"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/test-runs/{runId}/junit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The run as one JUnit XML report (Surefire’s, flaky attempts as <flakyFailure>) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    runId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/test-runs/{runId}/report": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The run as a self-contained HTML page: a timeline per device, retries and flaky tests marked */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    runId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/test-runs/{runId}/rerun-failed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A new run of the tests that failed in the end, with the run’s devices and strategy */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Names this request (1–255 visible ASCII characters): a repeat with the same body within 24 h is answered the first answer again (`Idempotent-Replayed: true`); see docs/api-conventions.md, "Idempotency" */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    runId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DfTestRunAccepted"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/api/test-runs/{runId}/tests": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every attempt of the run’s tests: one row per test and attempt */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    runId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DfTestAttempt"][];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/debug-tunnel/{sessionId}/{protocol}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Debug tunnel: one TCP stream to the device end of a protocol, as binary WebSocket messages
         * @description A WebSocket. `adb`: the device's whole adbd transport (point an adb server at it: `dfctl adb`); `jdwp/{pid}`; `tcp_forward/{port}`; `cdp[/{socket}]`. Needs the protocol granted (`POST .../debug-capabilities`); refused with 403 `DEBUG_NOT_GRANTED` otherwise. Closed with 4409 when the session ends and 4403 when access is withdrawn.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    protocol: "adb" | "jdwp" | "tcp_forward" | "cdp" | "usbmux" | "lldb_rsp" | "webkit_inspector";
                    sessionId: string;
                    target: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/debug-tunnel/{sessionId}/{protocol}/{target}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Debug tunnel: one TCP stream to the device end of a protocol, as binary WebSocket messages
         * @description A WebSocket. `adb`: the device's whole adbd transport (point an adb server at it: `dfctl adb`); `jdwp/{pid}`; `tcp_forward/{port}`; `cdp[/{socket}]`. Needs the protocol granted (`POST .../debug-capabilities`); refused with 403 `DEBUG_NOT_GRANTED` otherwise. Closed with 4409 when the session ends and 4403 when access is withdrawn.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    protocol: "adb" | "jdwp" | "tcp_forward" | "cdp" | "usbmux" | "lldb_rsp" | "webkit_inspector";
                    sessionId: string;
                    target: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/devtools/{sessionId}/{*}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Chrome DevTools protocol of a session's device (HTTP /json/* and WebSocket /devtools/*)
         * @description `GET .../json/version`, `.../json/list` (or `.../json`) and `.../json/protocol` answer as Chrome does, with WebSocket URLs through this route; a WebSocket upgrade of `.../devtools/browser/<id>` or `.../devtools/page/<id>` relays CDP frames. Needs `df:debug:use`, and `df:session:manage` for a session of another user.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    "*": string;
                    sessionId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        /** Chrome DevTools `PUT /json/new?<url>` of a session's device */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    "*": string;
                    sessionId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/downloads/dfctl/{file}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** dfctl's files (public): the npm package tarball and the single-file script the manifest names */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    file: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/downloads/packages/{file}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The client packages' npm tarballs (public) that the packages manifest names */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    file: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/wd/{*}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Anything else under /df/wd: W3C "unknown command" */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    "*": string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        /** Anything else under /df/wd: W3C "unknown command" */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    "*": string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        /** Anything else under /df/wd: W3C "unknown command" */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    "*": string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        /** Anything else under /df/wd: W3C "unknown command" */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    "*": string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        options?: never;
        head?: never;
        /** Anything else under /df/wd: W3C "unknown command" */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    "*": string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        trace?: never;
    };
    "/df/wd/session": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * New WebDriver session: takes a free matching device (waits in a queue when all are busy)
         * @description W3C new session. Devices are matched by platformName, browserName ("chrome" with no platform: a browser device), appium:deviceName, appium:platformVersion, appium:udid and df:deviceId; df:build and df:name name the platform session; df:queueTimeoutSeconds shortens the wait. Answers without webSocketUrl (classic WebDriver).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/wd/session/{sessionId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete a WebDriver session: ends the platform session and frees the device */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    sessionId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/wd/session/{sessionId}/{*}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A WebDriver command of a session, relayed to the device (see the hub policy) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    "*": string;
                    sessionId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        /** A WebDriver command of a session, relayed to the device (see the hub policy) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    "*": string;
                    sessionId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        /** A WebDriver command of a session, relayed to the device (see the hub policy) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    "*": string;
                    sessionId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/wd/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** WebDriver status: whether new sessions are accepted */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/df/ws/sessions/{sessionId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The viewer WebSocket: live screen frames out, input, presence and a terminal (upgrade only)
         * @description Open with `Upgrade: websocket`. Sign in with the `Authorization` header, `access_token` (and `workspaceId`) in the query, or a first message `{"type":"auth","token":"...","workspaceId":1}`; the server answers `hello`. Messages are JSON text with a `type` (`auth`, `input`, `ping`, `terminal.open`, `terminal.input`, `terminal.resize`, `terminal.close` from the viewer; `hello`, `frame` followed by the JPEG as a binary message, `viewers`, `ack`, `error`, `pong`, `reservation`, `terminal.opened`, `terminal.output`, `terminal.closed`, `ended` from the server). A refusal closes with 4000 + the HTTP status and the error code as reason. The full message list, fields and close codes: `docs/modules/device-testing.md`, "The viewer socket".
         */
        get: {
            parameters: {
                query?: {
                    /** @description The bearer token, for clients that cannot set headers (never logged) */
                    access_token?: string;
                    /** @description The workspace, for clients that cannot send X-Workspace-Id */
                    workspaceId?: string;
                };
                header?: never;
                path: {
                    /** @description The session to watch */
                    sessionId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Switching Protocols: the connection is now the viewer WebSocket */
                101: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/healthcheck/api/v1/api-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** health-check API keys of the workspace (never their values) */
        get: {
            parameters: {
                query?: {
                    /** @description 0-based page */
                    page?: number;
                    /** @description Page size, at most 200 */
                    size?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            content: components["schemas"]["HealthcheckApiKey"][];
                            page: number;
                            size: number;
                            totalElements: number;
                            totalPages: number;
                        };
                    };
                };
            };
        };
        put?: never;
        /** New health-check API key; its value is in this answer only */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            createdAt: string;
                            id: string;
                            key: string;
                            name: string;
                            prefix: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/healthcheck/api/v1/api-keys/{keyId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One health-check API key (never its value) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    keyId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["HealthcheckApiKey"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Revoke one health-check API key; it stops working at once */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    keyId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/healthcheck/api/v1/api-keys/{keyId}/approve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Let an health-check API key made from a password sign-in work again where the company requires single sign-on; needs USER_ADMIN_MANAGE */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    keyId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["HealthcheckApiKey"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/healthcheck/api/v1/checks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Health checks of the workspace with their status and last heartbeat */
        get: {
            parameters: {
                query?: {
                    /** @description 0-based page */
                    page?: number;
                    /** @description Page size, at most 200 */
                    size?: number;
                    status?: "new" | "up" | "down" | "paused";
                    tag?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            content: components["schemas"]["HealthCheck"][];
                            page: number;
                            size: number;
                            totalElements: number;
                            totalPages: number;
                        };
                    };
                };
            };
        };
        put?: never;
        /** Create a health check; its push token is in this answer only */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        description?: string;
                        /** @default 0 */
                        graceSeconds?: number;
                        intervalSeconds: number;
                        name: string;
                        tags?: string[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            createdAt: string;
                            createdBy: number;
                            description: string;
                            dueBy: string | null;
                            graceSeconds: number;
                            heartbeatCount: number;
                            id: string;
                            intervalSeconds: number;
                            lastHeartbeatAt: string | null;
                            name: string;
                            pushUrls: {
                                heartbeat: string;
                                metrics: string;
                            };
                            /** @enum {string} */
                            status: "new" | "up" | "down" | "paused";
                            statusChangedAt: string;
                            tags: string[];
                            token: string;
                            tokenPrefix: string;
                            updatedAt: string;
                            workspaceId: number;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/healthcheck/api/v1/checks/{checkId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One health check with its recent heartbeats and metric samples */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    checkId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            createdAt: string;
                            createdBy: number;
                            description: string;
                            dueBy: string | null;
                            graceSeconds: number;
                            heartbeatCount: number;
                            id: string;
                            intervalSeconds: number;
                            lastHeartbeatAt: string | null;
                            name: string;
                            recentHeartbeats: {
                                message: string | null;
                                receivedAt: string;
                                /** @enum {string} */
                                status: "up" | "fail";
                            }[];
                            recentSamples: components["schemas"]["HealthCheckMetricSample"][];
                            /** @enum {string} */
                            status: "new" | "up" | "down" | "paused";
                            statusChangedAt: string;
                            tags: string[];
                            tokenPrefix: string;
                            updatedAt: string;
                            workspaceId: number;
                        };
                    };
                };
            };
        };
        /** Change a health check (only the fields sent) */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    checkId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        description?: string;
                        graceSeconds?: number;
                        intervalSeconds?: number;
                        name?: string;
                        tags?: string[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["HealthCheck"];
                    };
                };
            };
        };
        post?: never;
        /** Delete a health check; its push token stops working */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    checkId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/healthcheck/api/v1/checks/{checkId}/heartbeats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Recent heartbeats of a check, newest first */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                };
                header?: never;
                path: {
                    checkId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            checkId: string;
                            heartbeats: {
                                message: string | null;
                                receivedAt: string;
                                /** @enum {string} */
                                status: "up" | "fail";
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/healthcheck/api/v1/checks/{checkId}/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The events of a check, oldest first: created, changed, paused, went down, recovered, ... */
        get: {
            parameters: {
                query?: {
                    /** @description 0-based page */
                    page?: number;
                    /** @description Page size, at most 200 */
                    size?: number;
                };
                header?: never;
                path: {
                    checkId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            content: {
                                actorId: number | null;
                                detail: {
                                    [key: string]: unknown;
                                };
                                eventId: string;
                                occurredAt: string;
                                type: string;
                            }[];
                            page: number;
                            size: number;
                            totalElements: number;
                            totalPages: number;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/healthcheck/api/v1/checks/{checkId}/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Metric samples of a check, newest first */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    name?: string;
                    since?: string;
                };
                header?: never;
                path: {
                    checkId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            checkId: string;
                            samples: components["schemas"]["HealthCheckMetricSample"][];
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/healthcheck/api/v1/checks/{checkId}/pause": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Pause a health check: heartbeats are still recorded, but it never goes down */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    checkId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["HealthCheck"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/healthcheck/api/v1/checks/{checkId}/resume": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Resume a paused health check: it is `new` again until its next heartbeat */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    checkId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["HealthCheck"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/healthcheck/api/v1/checks/{checkId}/token/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Replace the push token of a check; the old one stops working at once */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    checkId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            pushUrls: {
                                heartbeat: string;
                                metrics: string;
                            };
                            token: string;
                            tokenPrefix: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/healthcheck/api/v1/heartbeat/{token}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Report that a check is alive (or, with status "fail", that it failed); the token is the credential */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    token: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        message?: string;
                        /** @enum {string} */
                        status?: "up" | "fail";
                    } | null;
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            accepted: true;
                            checkId: string;
                            receivedAt: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/healthcheck/api/v1/metrics/{token}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Push metric samples of a check (at most 500 per request); the token is the credential */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    token: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        samples: {
                            /** Format: date-time */
                            at?: string;
                            name: string;
                            tags?: {
                                [key: string]: string;
                            };
                            unit?: string;
                            value: number;
                        }[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            accepted: true;
                            checkId: string;
                            receivedAt: string;
                            samples: number;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/oauth/token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * OAuth 2.0 client credentials grant: a token for the /v1 set (RFC 6749 section 4.4)
         * @description Form-urlencoded (or JSON) `grant_type=client_credentials`, the client authenticated by HTTP Basic or `client_id` and `client_secret`. The token acts as the user who created the client, in its workspace, limited to the granted scopes, and only on /v1. Errors: 400 invalid_request, unsupported_grant_type, invalid_scope, unauthorized_client (the client's user can no longer enter its workspace); 401 invalid_client.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Unless sent with HTTP Basic */
                        client_id?: string;
                        /** @description Unless sent with HTTP Basic */
                        client_secret?: string;
                        /**
                         * @description Must be "client_credentials"
                         * @example client_credentials
                         */
                        grant_type?: string;
                        /** @description Space-separated, a subset of the client's scopes; all of them when absent */
                        scope?: string;
                    };
                    "application/x-www-form-urlencoded": {
                        /** @description Unless sent with HTTP Basic */
                        client_id?: string;
                        /** @description Unless sent with HTTP Basic */
                        client_secret?: string;
                        /**
                         * @description Must be "client_credentials"
                         * @example client_credentials
                         */
                        grant_type?: string;
                        /** @description Space-separated, a subset of the client's scopes; all of them when absent */
                        scope?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["OAuthError"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["OAuthError"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["OAuthTokenResponse"];
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["OAuthError"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["OAuthError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/scim/v2/Groups": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Teams of the token's company; `filter=displayName eq "…"` finds one */
        get: {
            parameters: {
                query?: {
                    count?: number;
                    filter?: string;
                    startIndex?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        /** Create a team, with members who are users of the company */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/scim/v2/Groups/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One team with its members */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        /** Replace a team's name and members */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        post?: never;
        /** Delete a team; workspace access granted to it ends */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        options?: never;
        head?: never;
        /** Add or remove members, or rename (PatchOp) */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        trace?: never;
    };
    "/scim/v2/ResourceTypes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Users and Groups */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/scim/v2/Schemas": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The attributes of Users and Groups this service keeps */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/scim/v2/ServiceProviderConfig": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** What the SCIM service supports */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/scim/v2/Users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Users of the token's company; `filter=userName eq "…"` finds one */
        get: {
            parameters: {
                query?: {
                    count?: number;
                    filter?: string;
                    startIndex?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        /** Provision a user: active, with the token's roles, signing in through the company's identity provider */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/scim/v2/Users/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One user */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        /** Replace a user's name, title, phone and `active` */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        post?: never;
        /** Delete a user: their tokens end, their address and username are freed */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        options?: never;
        head?: never;
        /** Change a user (PatchOp); `active: false` deactivates them and ends every token of theirs at once */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        trace?: never;
    };
    "/tmt/api/v1/attachments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Attachments of the workspace, newest first (TMT_READ) */
        get: {
            parameters: {
                query?: {
                    /** @description 0-based page */
                    page?: number;
                    /** @description Page size, at most 200 */
                    size?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["TmtAttachmentPage"];
                    };
                };
            };
        };
        put?: never;
        /** Upload one file as multipart/form-data in a part named "file" (TMT_WRITE); at most TMT_ATTACHMENT_MAX_BYTES */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Names this request (1–255 visible ASCII characters): a repeat with the same body within 24 h is answered the first answer again (`Idempotent-Replayed: true`); see docs/api-conventions.md, "Idempotency" */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["TmtAttachment"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tmt/api/v1/attachments/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One attachment (TMT_READ); its bytes are reached through a download link */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["TmtAttachment"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Delete an attachment and its bytes; links to it stop working (TMT_DELETE) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tmt/api/v1/downloads": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create a pre-authorized download link to one object of the workspace (the kind decides the permission, TMT_READ for attachments) */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Names this request (1–255 visible ASCII characters): a repeat with the same body within 24 h is answered the first answer again (`Idempotent-Replayed: true`); see docs/api-conventions.md, "Idempotency" */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @default 3600 */
                        expiresInSeconds?: number;
                        id: string;
                        kind: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["TmtDownloadLink"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tmt/api/v1/mock-services": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Mock services of the workspace with their call counts (TMT_READ) */
        get: {
            parameters: {
                query?: {
                    module?: string;
                    /** @description 0-based page */
                    page?: number;
                    /** @description Page size, at most 200 */
                    size?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["TmtMockServicePage"];
                    };
                };
            };
        };
        put?: never;
        /** Define a mock service; names are unique per workspace, case-insensitive. Answers its unguessable public URL (TMT_WRITE) */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Names this request (1–255 visible ASCII characters): a repeat with the same body within 24 h is answered the first answer again (`Idempotent-Replayed: true`); see docs/api-conventions.md, "Idempotency" */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @default true */
                        enabled?: boolean;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["TmtMockService"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tmt/api/v1/mock-services/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One mock service with its call count and last call (TMT_READ) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["TmtMockService"];
                    };
                };
            };
        };
        /** Replace the name, module and routes of a mock service; its public id stays (TMT_WRITE) */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["TmtMockService"];
                    };
                };
            };
        };
        post?: never;
        /** Delete a mock service; its public URL answers 404 (TMT_DELETE) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tmt/api/v1/mock-services/{id}/disable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Stop answering the public URL: it answers 404 until enabled (TMT_WRITE) */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Names this request (1–255 visible ASCII characters): a repeat with the same body within 24 h is answered the first answer again (`Idempotent-Replayed: true`); see docs/api-conventions.md, "Idempotency" */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["TmtMockService"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tmt/api/v1/mock-services/{id}/enable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Answer the public URL again (TMT_WRITE) */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Names this request (1–255 visible ASCII characters): a repeat with the same body within 24 h is answered the first answer again (`Idempotent-Replayed: true`); see docs/api-conventions.md, "Idempotency" */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["TmtMockService"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tmt/api/v1/public/{module}/mock-services/{publicId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Public mock service dispatch, no credential: the first route matching the method and the rest of the path answers */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    module: string;
                    publicId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        /** Public mock service dispatch, no credential: the first route matching the method and the rest of the path answers */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    module: string;
                    publicId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        /** Public mock service dispatch, no credential: the first route matching the method and the rest of the path answers */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    module: string;
                    publicId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        /** Public mock service dispatch, no credential: the first route matching the method and the rest of the path answers */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    module: string;
                    publicId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        /** Public mock service dispatch, no credential: the first route matching the method and the rest of the path answers */
        options: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    module: string;
                    publicId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        /** Public mock service dispatch, no credential: the first route matching the method and the rest of the path answers */
        head: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    module: string;
                    publicId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        /** Public mock service dispatch, no credential: the first route matching the method and the rest of the path answers */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    module: string;
                    publicId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        trace?: never;
    };
    "/tmt/api/v1/public/{module}/mock-services/{publicId}/{*}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Public mock service dispatch, no credential: the first route matching the method and the rest of the path answers */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    "*": string;
                    module: string;
                    publicId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        /** Public mock service dispatch, no credential: the first route matching the method and the rest of the path answers */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    "*": string;
                    module: string;
                    publicId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        /** Public mock service dispatch, no credential: the first route matching the method and the rest of the path answers */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    "*": string;
                    module: string;
                    publicId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        /** Public mock service dispatch, no credential: the first route matching the method and the rest of the path answers */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    "*": string;
                    module: string;
                    publicId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        /** Public mock service dispatch, no credential: the first route matching the method and the rest of the path answers */
        options: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    "*": string;
                    module: string;
                    publicId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        /** Public mock service dispatch, no credential: the first route matching the method and the rest of the path answers */
        head: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    "*": string;
                    module: string;
                    publicId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        /** Public mock service dispatch, no credential: the first route matching the method and the rest of the path answers */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    "*": string;
                    module: string;
                    publicId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        trace?: never;
    };
    "/tmt/api/v1/public/download/{*}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Download the object a pre-authorized link names; no credential. Unknown, altered or expired links answer 404 */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    "*": string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tmt/company/api/v1/projects": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Projects of the active workspace (X-Workspace-Id), in the platform page shape (TMT_READ) */
        get: {
            parameters: {
                query?: {
                    /** @description 0-based page */
                    page?: number;
                    /** @description Page size, at most 200 */
                    size?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ProjectPage"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tmt/company/api/v1/userGroups": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** User groups of the company, by name (TMT_READ) */
        get: {
            parameters: {
                query?: {
                    memberId?: number;
                    /** @description 0-based page */
                    page?: number;
                    search?: string;
                    /** @description Page size, at most 200 */
                    size?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["TmtUserGroupPage"];
                    };
                };
            };
        };
        put?: never;
        /** Create a user group; names are unique per company, case-insensitive; members must be users of the company (TMT_WRITE) */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Names this request (1–255 visible ASCII characters): a repeat with the same body within 24 h is answered the first answer again (`Idempotent-Replayed: true`); see docs/api-conventions.md, "Idempotency" */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @default  */
                        description?: string;
                        /** @default [] */
                        memberIds?: number[];
                        name: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["TmtUserGroup"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tmt/company/api/v1/userGroups/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One user group (TMT_READ) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["TmtUserGroup"];
                    };
                };
            };
        };
        /** Rename, describe, or replace the members of a user group; absent fields stay (TMT_WRITE) */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        description?: string;
                        memberIds?: number[];
                        name?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["TmtUserGroup"];
                    };
                };
            };
        };
        post?: never;
        /** Delete a user group (TMT_DELETE) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tmt/company/api/v1/userGroups/{id}/members/{userId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Add a user of the company to the group (TMT_WRITE) */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Names this request (1–255 visible ASCII characters): a repeat with the same body within 24 h is answered the first answer again (`Idempotent-Replayed: true`); see docs/api-conventions.md, "Idempotency" */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    id: string;
                    userId: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["TmtUserGroup"];
                    };
                };
            };
        };
        /** Remove a member from the group (TMT_WRITE) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    userId: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["TmtUserGroup"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/projects": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Projects of the workspace, oldest first (TMT_READ) */
        get: {
            parameters: {
                query?: {
                    /** @description Page size, at most 100 */
                    limit?: number;
                    /** @description 1-based page */
                    page?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["V1Error"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["V1Error"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["V1Project"][];
                            pagination: {
                                limit: number;
                                page: number;
                                total: number;
                            };
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
            };
        };
        put?: never;
        /** Create a project in the workspace; its key is unique in the company (TMT_WRITE) */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Names this request (1–255 visible ASCII characters): a repeat with the same body within 24 h is answered the first answer again (`Idempotent-Replayed: true`); see docs/api-conventions.md, "Idempotency" */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @default  */
                        description?: string;
                        key: string;
                        name: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["V1Error"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["V1Error"];
                    };
                };
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["V1Project"];
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/projects/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One project (TMT_READ) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["V1Error"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["V1Error"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["V1Project"];
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
            };
        };
        /** Change name, key or description (TMT_WRITE) */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        description?: string;
                        key?: string;
                        name?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["V1Error"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["V1Error"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["V1Project"];
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
            };
        };
        post?: never;
        /** Delete a project with its test cases and sessions; its key can be used again (TMT_DELETE) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["V1Error"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["V1Error"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                id: string;
                            };
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/projects/{id}/junit-imports": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Import a JUnit XML report into the project: into a new session (named by ?name=, else "JUnit import <time>"), or with ?testSessionId= into that open session of the project (one shard of a CI run); matching and creating test cases as the session import does. The JUnit XML as the body (application/xml or text/xml) or as the "file" part of multipart/form-data, at most 10 MiB (TMT_WRITE) */
        post: {
            parameters: {
                query?: {
                    /** @description true: complete the session after the import, in the same append (the last shard of a CI run) */
                    close?: "true" | "false";
                    /** @description The name of the new session (not used with testSessionId) */
                    name?: string;
                    /** @description An open session of the project to add the results to; a report imported again replaces its earlier results for the same tests */
                    testSessionId?: string;
                };
                header?: {
                    /** @description Names this request (1–255 visible ASCII characters): a repeat with the same body within 24 h is answered the first answer again (`Idempotent-Replayed: true`); see docs/api-conventions.md, "Idempotency" */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["V1Error"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["V1Error"];
                    };
                };
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["V1JunitImport"];
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/test-cases": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Test cases of the workspace in creation order, filtered by project, priority, status and title (TMT_READ) */
        get: {
            parameters: {
                query?: {
                    /** @description Page size, at most 100 */
                    limit?: number;
                    /** @description 1-based page */
                    page?: number;
                    priority?: "low" | "medium" | "high" | "critical";
                    projectId?: string;
                    /** @description Part of the title, case-insensitive */
                    search?: string;
                    status?: "draft" | "ready" | "deprecated";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["V1Error"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["V1Error"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["V1TestCase"][];
                            pagination: {
                                limit: number;
                                page: number;
                                total: number;
                            };
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
            };
        };
        put?: never;
        /** Create a test case in a project of the workspace; an unknown project is 404 (TMT_WRITE) */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Names this request (1–255 visible ASCII characters): a repeat with the same body within 24 h is answered the first answer again (`Idempotent-Replayed: true`); see docs/api-conventions.md, "Idempotency" */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @default  */
                        description?: string;
                        /**
                         * @default medium
                         * @enum {string}
                         */
                        priority?: "low" | "medium" | "high" | "critical";
                        /** Format: uuid */
                        projectId: string;
                        /**
                         * @default draft
                         * @enum {string}
                         */
                        status?: "draft" | "ready" | "deprecated";
                        /** @default [] */
                        steps?: {
                            action: string;
                            expected: string;
                        }[];
                        title: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["V1Error"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["V1Error"];
                    };
                };
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["V1TestCase"];
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/test-cases/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One test case (TMT_READ) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["V1Error"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["V1Error"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["V1TestCase"];
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
            };
        };
        /** Change title, description, priority, status or steps; the project stays (TMT_WRITE) */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        description?: string;
                        /** @enum {string} */
                        priority?: "low" | "medium" | "high" | "critical";
                        /** @enum {string} */
                        status?: "draft" | "ready" | "deprecated";
                        steps?: {
                            action: string;
                            expected: string;
                        }[];
                        title?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["V1Error"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["V1Error"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["V1TestCase"];
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
            };
        };
        post?: never;
        /** Delete a test case (TMT_DELETE) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["V1Error"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["V1Error"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                id: string;
                            };
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/test-sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Test sessions of the workspace in creation order, filtered by project and status (TMT_READ) */
        get: {
            parameters: {
                query?: {
                    /** @description Page size, at most 100 */
                    limit?: number;
                    /** @description 1-based page */
                    page?: number;
                    projectId?: string;
                    status?: "planned" | "in_progress" | "completed";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["V1Error"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["V1Error"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["V1TestSession"][];
                            pagination: {
                                limit: number;
                                page: number;
                                total: number;
                            };
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
            };
        };
        put?: never;
        /** Start (plan) a test session of a project with some of its test cases (TMT_WRITE) */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Names this request (1–255 visible ASCII characters): a repeat with the same body within 24 h is answered the first answer again (`Idempotent-Replayed: true`); see docs/api-conventions.md, "Idempotency" */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name: string;
                        /** Format: uuid */
                        projectId: string;
                        /** @default [] */
                        testCases?: string[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["V1Error"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["V1Error"];
                    };
                };
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["V1TestSessionDetail"];
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/test-sessions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One test session with the current result of each case (TMT_READ) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["V1Error"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["V1Error"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["V1TestSessionDetail"];
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
            };
        };
        /** Rename, change the case list (not once completed), or move the status forward: planned → in_progress → completed; any other move is 409 (TMT_WRITE) */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name?: string;
                        /** @enum {string} */
                        status?: "planned" | "in_progress" | "completed";
                        testCases?: string[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["V1Error"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["V1Error"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["V1TestSessionDetail"];
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/test-sessions/{id}/results": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Results of a session: the current result of each case, or with history=true every result recorded, oldest first (TMT_READ) */
        get: {
            parameters: {
                query?: {
                    history?: "true" | "false";
                    /** @description Page size, at most 100 */
                    limit?: number;
                    /** @description 1-based page */
                    page?: number;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["V1Error"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["V1Error"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["V1TestResult"][];
                            pagination: {
                                limit: number;
                                page: number;
                                total: number;
                            };
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
            };
        };
        put?: never;
        /** Record one result, or a list of up to 1000: all or nothing; the first result moves a planned session to in_progress (TMT_WRITE) */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Names this request (1–255 visible ASCII characters): a repeat with the same body within 24 h is answered the first answer again (`Idempotent-Replayed: true`); see docs/api-conventions.md, "Idempotency" */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The device session that ran the test; its video becomes the result's attachment. An id that is not a device session of the company is recorded as none */
                        deviceSessionId?: string | null;
                        durationMs?: number | null;
                        notes?: string | null;
                        /** @enum {string} */
                        status: "passed" | "failed" | "blocked" | "skipped" | "retest";
                        /** Format: uuid */
                        testCaseId: string;
                    } | {
                        /** @description The device session that ran the test; its video becomes the result's attachment. An id that is not a device session of the company is recorded as none */
                        deviceSessionId?: string | null;
                        durationMs?: number | null;
                        notes?: string | null;
                        /** @enum {string} */
                        status: "passed" | "failed" | "blocked" | "skipped" | "retest";
                        /** Format: uuid */
                        testCaseId: string;
                    }[];
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["V1Error"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["V1Error"];
                    };
                };
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                recorded: number;
                                /** @enum {string} */
                                sessionStatus: "planned" | "in_progress" | "completed";
                            };
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/test-sessions/{id}/results/junit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Import a JUnit XML report into the session: each testcase is matched to the project's test case titled "<classname> › <name>" (created when missing), joins the session, and its result is recorded in one command, replacing what an earlier report recorded for the same test. The JUnit XML as the body (application/xml or text/xml) or as the "file" part of multipart/form-data, at most 10 MiB (TMT_WRITE) */
        post: {
            parameters: {
                query?: {
                    /** @description true: complete the session after the import, in the same append (the last shard of a CI run) */
                    close?: "true" | "false";
                };
                header?: {
                    /** @description Names this request (1–255 visible ASCII characters): a repeat with the same body within 24 h is answered the first answer again (`Idempotent-Replayed: true`); see docs/api-conventions.md, "Idempotency" */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["V1Error"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["V1Error"];
                    };
                };
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["V1JunitImport"];
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Users of the company (USER_READ) */
        get: {
            parameters: {
                query?: {
                    /** @description Page size, at most 100 */
                    limit?: number;
                    /** @description 1-based page */
                    page?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["V1Error"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["V1Error"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["V1User"][];
                            pagination: {
                                limit: number;
                                page: number;
                                total: number;
                            };
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/users/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One user (USER_READ, or yourself) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["V1Error"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["V1Error"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["V1User"];
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
            };
        };
        /** Change name, username, title, phone (yourself, or USER_MANAGE); role replaces the company roles with the named one (USER_MANAGE) */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name?: string;
                        phone?: string | null;
                        /** @description A role name of the company, such as "Member" */
                        role?: string;
                        title?: string | null;
                        username?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["V1Error"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["V1Error"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["V1User"];
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
            };
        };
        post?: never;
        /** Delete a user; their tokens stop working (USER_MANAGE; not yourself) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["V1Error"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["V1Error"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                id: number;
                            };
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/users/invite": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Invite by e-mail with a role name: a passive user and an activation mail (USER_INVITE; only roles whose keys you hold) */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Names this request (1–255 visible ASCII characters): a repeat with the same body within 24 h is answered the first answer again (`Idempotent-Replayed: true`); see docs/api-conventions.md, "Idempotency" */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** Format: email */
                        email: string;
                        /** @description A role name of the company, such as "Member" */
                        role: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["V1Error"];
                    };
                };
                /** @description Default Response */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["V1Error"];
                    };
                };
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["V1User"];
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["V1User"];
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        AccessReview: {
            /** @description The moment reviewed */
            at: string;
            grants: {
                teams: {
                    id: number;
                    memberIds: number[];
                    name: string;
                }[];
                users: {
                    email: string;
                    id: number;
                    name: string;
                }[];
            };
            people: {
                /** @description Empty: member roles held here, but no way in */
                access: {
                    teamId?: number;
                    teamName?: string;
                    /** @enum {string} */
                    via: "admin" | "user" | "team";
                }[];
                email: string;
                id: number;
                isAdmin: boolean;
                name: string;
                /** @description The keys held in the workspace then */
                permissions: string[];
                roles: {
                    builtIn: boolean;
                    id: number;
                    name: string;
                    /** @description The keys the role gave at that moment */
                    permissions: string[];
                    /**
                     * @description `company`: a role of the person everywhere; `workspace`: a member role in this workspace
                     * @enum {string}
                     */
                    scope: "company" | "workspace";
                }[];
                /** @enum {string} */
                status: "passive" | "active" | "deactivated";
                teams: {
                    id: number;
                    name: string;
                }[];
            }[];
            /** @description Active people who could use the key then */
            permissionKey?: {
                holders: {
                    access: {
                        teamId?: number;
                        teamName?: string;
                        /** @enum {string} */
                        via: "admin" | "user" | "team";
                    }[];
                    email: string;
                    name: string;
                    through: {
                        /** @enum {string} */
                        kind: "admin" | "role";
                        roleId?: number;
                        roleName?: string;
                        /** @enum {string} */
                        scope?: "company" | "workspace";
                    }[];
                    userId: number;
                }[];
                key: string;
            };
            workspace: {
                archived: boolean;
                id: number;
                name: string;
            };
        };
        AccessReviewDetail: {
            completedAt: string | null;
            completedBy: components["schemas"]["AccessReviewPerson"] | null;
            counts: {
                items: number;
                keep: number;
                revoke: number;
                undecided: number;
            };
            id: number;
            /** @description The grants as they stood at the start, in order */
            items: components["schemas"]["AccessReviewItem"][];
            startedAt: string;
            startedBy: components["schemas"]["AccessReviewPerson"];
            /** @enum {string} */
            status: "open" | "completed";
            workspace: {
                id: number;
                /** @description As it was called when the review started */
                name: string;
            };
        };
        AccessReviewDetailInput: {
            completedAt: string | null;
            completedBy: components["schemas"]["AccessReviewPersonInput"] | null;
            counts: {
                items: number;
                keep: number;
                revoke: number;
                undecided: number;
            };
            id: number;
            /** @description The grants as they stood at the start, in order */
            items: components["schemas"]["AccessReviewItemInput"][];
            startedAt: string;
            startedBy: components["schemas"]["AccessReviewPersonInput"];
            /** @enum {string} */
            status: "open" | "completed";
            workspace: {
                id: number;
                /** @description As it was called when the review started */
                name: string;
            };
        };
        AccessReviewEvidence: {
            completedAt: string | null;
            completedBy: components["schemas"]["AccessReviewPerson"] | null;
            counts: {
                items: number;
                keep: number;
                revoke: number;
                undecided: number;
            };
            exportedAt: string;
            id: number;
            items: {
                decidedAt: string | null;
                decidedBy: components["schemas"]["AccessReviewPerson"] | null;
                /** @description Null until decided */
                decision: ("keep" | "revoke") | null;
                /** @description The grant in words */
                grant: string;
                /** @description Stable: made of what the grant is (`workspace-user-7`, `team-member-3-7`, `company-role-7-12`, ...) */
                id: string;
                /**
                 * @description `workspace-user`/`workspace-team`: an access grant to the workspace; `team-member`: a membership of a team granted it; `workspace-role`: a member role here; `company-role`: a company role of someone who can enter; `admin`: company administrator
                 * @enum {string}
                 */
                kind: "workspace-user" | "workspace-team" | "team-member" | "workspace-role" | "company-role" | "admin";
                note: string | null;
                /** @description Once completed, for a grant marked revoke: `revoked`, `already-gone` (revoked or removed since the start: done), or `failed` with the error code its command answered */
                outcome: {
                    code: string | null;
                    message: string | null;
                    /** @enum {string} */
                    result: "revoked" | "already-gone" | "failed";
                } | null;
                role: {
                    id: number;
                    name: string;
                    /** @description The keys it gave when the review started */
                    permissions: string[];
                } | null;
                team: {
                    id: number;
                    name: string;
                } | null;
                user: {
                    email: string;
                    id: number;
                    name: string;
                } | null;
            }[];
            startedAt: string;
            startedBy: components["schemas"]["AccessReviewPerson"];
            /** @enum {string} */
            status: "open" | "completed";
            workspace: {
                id: number;
                /** @description As it was called when the review started */
                name: string;
            };
        };
        AccessReviewEvidenceInput: {
            completedAt: string | null;
            completedBy: components["schemas"]["AccessReviewPersonInput"] | null;
            counts: {
                items: number;
                keep: number;
                revoke: number;
                undecided: number;
            };
            exportedAt: string;
            id: number;
            items: {
                decidedAt: string | null;
                decidedBy: components["schemas"]["AccessReviewPersonInput"] | null;
                /** @description Null until decided */
                decision: ("keep" | "revoke") | null;
                /** @description The grant in words */
                grant: string;
                /** @description Stable: made of what the grant is (`workspace-user-7`, `team-member-3-7`, `company-role-7-12`, ...) */
                id: string;
                /**
                 * @description `workspace-user`/`workspace-team`: an access grant to the workspace; `team-member`: a membership of a team granted it; `workspace-role`: a member role here; `company-role`: a company role of someone who can enter; `admin`: company administrator
                 * @enum {string}
                 */
                kind: "workspace-user" | "workspace-team" | "team-member" | "workspace-role" | "company-role" | "admin";
                note: string | null;
                /** @description Once completed, for a grant marked revoke: `revoked`, `already-gone` (revoked or removed since the start: done), or `failed` with the error code its command answered */
                outcome: {
                    code: string | null;
                    message: string | null;
                    /** @enum {string} */
                    result: "revoked" | "already-gone" | "failed";
                } | null;
                role: {
                    id: number;
                    name: string;
                    /** @description The keys it gave when the review started */
                    permissions: string[];
                } | null;
                team: {
                    id: number;
                    name: string;
                } | null;
                user: {
                    email: string;
                    id: number;
                    name: string;
                } | null;
            }[];
            startedAt: string;
            startedBy: components["schemas"]["AccessReviewPersonInput"];
            /** @enum {string} */
            status: "open" | "completed";
            workspace: {
                id: number;
                /** @description As it was called when the review started */
                name: string;
            };
        };
        AccessReviewInput: {
            /** @description The moment reviewed */
            at: string;
            grants: {
                teams: {
                    id: number;
                    memberIds: number[];
                    name: string;
                }[];
                users: {
                    email: string;
                    id: number;
                    name: string;
                }[];
            };
            people: {
                /** @description Empty: member roles held here, but no way in */
                access: {
                    teamId?: number;
                    teamName?: string;
                    /** @enum {string} */
                    via: "admin" | "user" | "team";
                }[];
                email: string;
                id: number;
                isAdmin: boolean;
                name: string;
                /** @description The keys held in the workspace then */
                permissions: string[];
                roles: {
                    builtIn: boolean;
                    id: number;
                    name: string;
                    /** @description The keys the role gave at that moment */
                    permissions: string[];
                    /**
                     * @description `company`: a role of the person everywhere; `workspace`: a member role in this workspace
                     * @enum {string}
                     */
                    scope: "company" | "workspace";
                }[];
                /** @enum {string} */
                status: "passive" | "active" | "deactivated";
                teams: {
                    id: number;
                    name: string;
                }[];
            }[];
            /** @description Active people who could use the key then */
            permissionKey?: {
                holders: {
                    access: {
                        teamId?: number;
                        teamName?: string;
                        /** @enum {string} */
                        via: "admin" | "user" | "team";
                    }[];
                    email: string;
                    name: string;
                    through: {
                        /** @enum {string} */
                        kind: "admin" | "role";
                        roleId?: number;
                        roleName?: string;
                        /** @enum {string} */
                        scope?: "company" | "workspace";
                    }[];
                    userId: number;
                }[];
                key: string;
            };
            workspace: {
                archived: boolean;
                id: number;
                name: string;
            };
        };
        AccessReviewItem: {
            decidedAt: string | null;
            decidedBy: components["schemas"]["AccessReviewPerson"] | null;
            /** @description Null until decided */
            decision: ("keep" | "revoke") | null;
            /** @description Stable: made of what the grant is (`workspace-user-7`, `team-member-3-7`, `company-role-7-12`, ...) */
            id: string;
            /**
             * @description `workspace-user`/`workspace-team`: an access grant to the workspace; `team-member`: a membership of a team granted it; `workspace-role`: a member role here; `company-role`: a company role of someone who can enter; `admin`: company administrator
             * @enum {string}
             */
            kind: "workspace-user" | "workspace-team" | "team-member" | "workspace-role" | "company-role" | "admin";
            note: string | null;
            /** @description Once completed, for a grant marked revoke: `revoked`, `already-gone` (revoked or removed since the start: done), or `failed` with the error code its command answered */
            outcome: {
                code: string | null;
                message: string | null;
                /** @enum {string} */
                result: "revoked" | "already-gone" | "failed";
            } | null;
            role: {
                id: number;
                name: string;
                /** @description The keys it gave when the review started */
                permissions: string[];
            } | null;
            team: {
                id: number;
                name: string;
            } | null;
            user: {
                email: string;
                id: number;
                name: string;
            } | null;
        };
        AccessReviewItemInput: {
            decidedAt: string | null;
            decidedBy: components["schemas"]["AccessReviewPersonInput"] | null;
            /** @description Null until decided */
            decision: ("keep" | "revoke") | null;
            /** @description Stable: made of what the grant is (`workspace-user-7`, `team-member-3-7`, `company-role-7-12`, ...) */
            id: string;
            /**
             * @description `workspace-user`/`workspace-team`: an access grant to the workspace; `team-member`: a membership of a team granted it; `workspace-role`: a member role here; `company-role`: a company role of someone who can enter; `admin`: company administrator
             * @enum {string}
             */
            kind: "workspace-user" | "workspace-team" | "team-member" | "workspace-role" | "company-role" | "admin";
            note: string | null;
            /** @description Once completed, for a grant marked revoke: `revoked`, `already-gone` (revoked or removed since the start: done), or `failed` with the error code its command answered */
            outcome: {
                code: string | null;
                message: string | null;
                /** @enum {string} */
                result: "revoked" | "already-gone" | "failed";
            } | null;
            role: {
                id: number;
                name: string;
                /** @description The keys it gave when the review started */
                permissions: string[];
            } | null;
            team: {
                id: number;
                name: string;
            } | null;
            user: {
                email: string;
                id: number;
                name: string;
            } | null;
        };
        AccessReviewPage: {
            content: components["schemas"]["AccessReviewSummary"][];
            page: number;
            size: number;
            totalElements: number;
            totalPages: number;
        };
        AccessReviewPageInput: {
            content: components["schemas"]["AccessReviewSummaryInput"][];
            page: number;
            size: number;
            totalElements: number;
            totalPages: number;
        };
        /** @description Who acted, named as the directory has them now (null for someone no longer of the company) */
        AccessReviewPerson: {
            email: string | null;
            id: number;
            name: string | null;
        };
        /** @description Who acted, named as the directory has them now (null for someone no longer of the company) */
        AccessReviewPersonInput: {
            email: string | null;
            id: number;
            name: string | null;
        };
        AccessReviewSummary: {
            completedAt: string | null;
            completedBy: components["schemas"]["AccessReviewPerson"] | null;
            counts: {
                items: number;
                keep: number;
                revoke: number;
                undecided: number;
            };
            id: number;
            startedAt: string;
            startedBy: components["schemas"]["AccessReviewPerson"];
            /** @enum {string} */
            status: "open" | "completed";
            workspace: {
                id: number;
                /** @description As it was called when the review started */
                name: string;
            };
        };
        AccessReviewSummaryInput: {
            completedAt: string | null;
            completedBy: components["schemas"]["AccessReviewPersonInput"] | null;
            counts: {
                items: number;
                keep: number;
                revoke: number;
                undecided: number;
            };
            id: number;
            startedAt: string;
            startedBy: components["schemas"]["AccessReviewPersonInput"];
            /** @enum {string} */
            status: "open" | "completed";
            workspace: {
                id: number;
                /** @description As it was called when the review started */
                name: string;
            };
        };
        AuditEvent: {
            actorEmail: string | null;
            actorId: number | null;
            /** @description The acting user's name, or how a non-user actor (a device host, the platform) is called */
            actorName: string | null;
            /** @description Old and new value of each field a change changed */
            changes: {
                [key: string]: {
                    new: unknown;
                    old: unknown;
                };
            } | null;
            /** @description Address of the client whose request caused it */
            clientAddress: string | null;
            correlationId: string | null;
            deviceId: string | null;
            /** @description The event type in words */
            eventLabel: string;
            eventType: string;
            id: string;
            occurredAt: string;
            /** @description The event as recorded, secrets redacted */
            payload: {
                [key: string]: unknown;
            };
            /** @description Position in the event log; orders the history */
            position: string;
            resourceId: string;
            /** @description What the resource was called when it happened: device, session, file, app version, user, workspace ... */
            resourceName: string | null;
            resourceType: string;
            sessionId: string | null;
            subjectEmail: string | null;
            subjectName: string | null;
            /** @description The person the event is about when that is not the resource itself: the viewer disconnected, the member added, the invitee */
            subjectUserId: number | null;
            workspaceId: number | null;
        };
        AuditEventInput: {
            actorEmail: string | null;
            actorId: number | null;
            /** @description The acting user's name, or how a non-user actor (a device host, the platform) is called */
            actorName: string | null;
            /** @description Old and new value of each field a change changed */
            changes: {
                [key: string]: {
                    new: unknown;
                    old: unknown;
                };
            } | null;
            /** @description Address of the client whose request caused it */
            clientAddress: string | null;
            correlationId: string | null;
            deviceId: string | null;
            /** @description The event type in words */
            eventLabel: string;
            eventType: string;
            id: string;
            occurredAt: string;
            /** @description The event as recorded, secrets redacted */
            payload: {
                [key: string]: unknown;
            };
            /** @description Position in the event log; orders the history */
            position: string;
            resourceId: string;
            /** @description What the resource was called when it happened: device, session, file, app version, user, workspace ... */
            resourceName: string | null;
            resourceType: string;
            sessionId: string | null;
            subjectEmail: string | null;
            subjectName: string | null;
            /** @description The person the event is about when that is not the resource itself: the viewer disconnected, the member added, the invitee */
            subjectUserId: number | null;
            workspaceId: number | null;
        };
        AuditEventPage: {
            content: components["schemas"]["AuditEvent"][];
            page: number;
            size: number;
            totalElements: number;
            totalPages: number;
        };
        AuditEventPageInput: {
            content: components["schemas"]["AuditEventInput"][];
            page: number;
            size: number;
            totalElements: number;
            totalPages: number;
        };
        AuditEventType: {
            /** @description The type in words ("Viewer disconnected") */
            label: string;
            resourceType: string;
            type: string;
        };
        AuditEventTypeInput: {
            /** @description The type in words ("Viewer disconnected") */
            label: string;
            resourceType: string;
            type: string;
        };
        AuditShipping: {
            targets: components["schemas"]["AuditShippingTarget"][];
        };
        AuditShippingInput: {
            targets: components["schemas"]["AuditShippingTargetInput"][];
        };
        AuditShippingTarget: {
            /** @description The caller's company's audited events not shipped yet */
            backlog: number;
            /** @description Where it ships to: host and port, never credentials */
            host: string;
            /**
             * @description syslog: RFC 5424 over TLS; http: JSON lines to a collector
             * @enum {string}
             */
            kind: "syslog" | "http";
            /** @description Why the last attempt failed; null once a batch went */
            lastError: string | null;
            lastShippedAt: string | null;
            /** @description Position in the event log of the last audited event the target acknowledged */
            position: string;
        };
        AuditShippingTargetInput: {
            /** @description The caller's company's audited events not shipped yet */
            backlog: number;
            /** @description Where it ships to: host and port, never credentials */
            host: string;
            /**
             * @description syslog: RFC 5424 over TLS; http: JSON lines to a collector
             * @enum {string}
             */
            kind: "syslog" | "http";
            /** @description Why the last attempt failed; null once a batch went */
            lastError: string | null;
            lastShippedAt: string | null;
            /** @description Position in the event log of the last audited event the target acknowledged */
            position: string;
        };
        AuditSigningKey: {
            alg: string;
            /** @constant */
            crv: "Ed25519";
            kid: string;
            /** @constant */
            kty: "OKP";
            use: string;
            x: string;
        };
        AuditSigningKeyInput: {
            alg: string;
            /** @constant */
            crv: "Ed25519";
            kid: string;
            /** @constant */
            kty: "OKP";
            use: string;
            x: string;
        };
        AuditSigningKeys: {
            keys: components["schemas"]["AuditSigningKey"][];
        };
        AuditSigningKeysInput: {
            keys: components["schemas"]["AuditSigningKeyInput"][];
        };
        AuditVerification: {
            /** @description Signed checkpoints checked */
            checkpoints: number;
            /** @description Events checked */
            events: number;
            /** @description The position where the chain first breaks */
            firstBadPosition?: string;
            ok: boolean;
            /** @description What is wrong there, in words */
            reason?: string;
        };
        AuditVerificationInput: {
            /** @description Signed checkpoints checked */
            checkpoints: number;
            /** @description Events checked */
            events: number;
            /** @description The position where the chain first breaks */
            firstBadPosition?: string;
            ok: boolean;
            /** @description What is wrong there, in words */
            reason?: string;
        };
        ClientPackage: {
            /** @description The tarball's file name */
            file: string;
            /** @description `npm install <url>`: adds it to a project */
            install: string;
            /** @description The npm package name */
            name: string;
            /** @description Hex SHA-256 of the tarball */
            sha256: string;
            /** @description Bytes */
            size: number;
            /** @description Absolute download URL (public: no credential needed) */
            url: string;
            version: string;
        };
        ClientPackageInput: {
            /** @description The tarball's file name */
            file: string;
            /** @description `npm install <url>`: adds it to a project */
            install: string;
            /** @description The npm package name */
            name: string;
            /** @description Hex SHA-256 of the tarball */
            sha256: string;
            /** @description Bytes */
            size: number;
            /** @description Absolute download URL (public: no credential needed) */
            url: string;
            version: string;
        };
        ClientPackagesManifest: {
            /** @description One `npm install` of them all, the typed client first */
            install: string;
            /** @description The Node.js versions they run on */
            node: string;
            /** @description In install order: the typed client first, which the others depend on */
            packages: components["schemas"]["ClientPackage"][];
        };
        ClientPackagesManifestInput: {
            /** @description One `npm install` of them all, the typed client first */
            install: string;
            /** @description The Node.js versions they run on */
            node: string;
            /** @description In install order: the typed client first, which the others depend on */
            packages: components["schemas"]["ClientPackageInput"][];
        };
        CompanyAdministrator: {
            email: string;
            id: number;
            name: string;
        };
        CompanyAdministratorInput: {
            email: string;
            id: number;
            name: string;
        };
        DfAccessibilityAudit: {
            completedAt: string | null;
            createdAt: string;
            createdBy: number;
            deviceId: string;
            findingCounts: {
                critical: number;
                minor: number;
                moderate: number;
                serious: number;
            };
            id: string;
            name: string;
            platform: string;
            scanCount: number;
            sessionId: string | null;
            /** @enum {string} */
            status: "in_progress" | "completed";
        };
        DfAccessibilityAuditInput: {
            completedAt: string | null;
            createdAt: string;
            createdBy: number;
            deviceId: string;
            findingCounts: {
                critical: number;
                minor: number;
                moderate: number;
                serious: number;
            };
            id: string;
            name: string;
            platform: string;
            scanCount: number;
            sessionId: string | null;
            /** @enum {string} */
            status: "in_progress" | "completed";
        };
        DfAccessibilityExport: {
            auditId: string;
            createdAt: string;
            error: string | null;
            /** @enum {string} */
            format: "csv" | "json" | "html";
            id: string;
            size: number | null;
            /** @enum {string} */
            state: "running" | "succeeded" | "failed";
            updatedAt: string;
            url?: string;
        };
        DfAccessibilityExportInput: {
            auditId: string;
            createdAt: string;
            error: string | null;
            /** @enum {string} */
            format: "csv" | "json" | "html";
            id: string;
            size: number | null;
            /** @enum {string} */
            state: "running" | "succeeded" | "failed";
            updatedAt: string;
            url?: string;
        };
        DfAccessibilityFinding: {
            auditId: string;
            createdAt: string;
            description: string;
            element: {
                bounds: {
                    height: number;
                    width: number;
                    x: number;
                    y: number;
                };
                html: string | null;
                selector: string;
                text: string;
            };
            fingerprint: string;
            helpUrl: string;
            id: string;
            /** @enum {string} */
            impact: "critical" | "serious" | "moderate" | "minor";
            ruleId: string;
            scanId: string;
            triage: {
                at: string | null;
                by: number | null;
                reason: string | null;
                /** @enum {string} */
                status: "open" | "confirmed" | "false_positive" | "wont_fix" | "fixed";
            };
            wcag: string[];
        };
        DfAccessibilityFindingInput: {
            auditId: string;
            createdAt: string;
            description: string;
            element: {
                bounds: {
                    height: number;
                    width: number;
                    x: number;
                    y: number;
                };
                html: string | null;
                selector: string;
                text: string;
            };
            fingerprint: string;
            helpUrl: string;
            id: string;
            /** @enum {string} */
            impact: "critical" | "serious" | "moderate" | "minor";
            ruleId: string;
            scanId: string;
            triage: {
                at: string | null;
                by: number | null;
                reason: string | null;
                /** @enum {string} */
                status: "open" | "confirmed" | "false_positive" | "wont_fix" | "fixed";
            };
            wcag: string[];
        };
        DfAccessibilityScan: {
            auditId: string;
            createdAt: string;
            engine: string;
            findingCount: number;
            hasScreenshot: boolean;
            hasTree: boolean;
            id: string;
            scope: string;
            screen: {
                height: number;
                width: number;
            } | null;
            title: string;
            url: string;
        };
        DfAccessibilityScanInput: {
            auditId: string;
            createdAt: string;
            engine: string;
            findingCount: number;
            hasScreenshot: boolean;
            hasTree: boolean;
            id: string;
            scope: string;
            screen: {
                height: number;
                width: number;
            } | null;
            title: string;
            url: string;
        };
        DfActivity: {
            actorId: string | null;
            at: string;
            detail: {
                [key: string]: unknown;
            };
            deviceId: string | null;
            id: string;
            kind: string;
            reservationId: string | null;
            sessionId: string | null;
        };
        DfActivityInput: {
            actorId: string | null;
            at: string;
            detail: {
                [key: string]: unknown;
            };
            deviceId: string | null;
            id: string;
            kind: string;
            reservationId: string | null;
            sessionId: string | null;
        };
        DfApiKey: {
            createdAt: string;
            createdBy: number;
            id: string;
            name: string;
            /** @description Made from a password sign-in while its company requires single sign-on: refused until an administrator approves it */
            needsApproval: boolean;
            prefix: string;
            revoked: boolean;
            revokedAt: string | null;
            /**
             * @description How its creator was signed in when they made it
             * @enum {string}
             */
            signIn: "password" | "sso";
            workspaceId: number;
        };
        DfApiKeyInput: {
            createdAt: string;
            createdBy: number;
            id: string;
            name: string;
            /** @description Made from a password sign-in while its company requires single sign-on: refused until an administrator approves it */
            needsApproval: boolean;
            prefix: string;
            revoked: boolean;
            revokedAt: string | null;
            /**
             * @description How its creator was signed in when they made it
             * @enum {string}
             */
            signIn: "password" | "sso";
            workspaceId: number;
        };
        DfApp: {
            /** @description A short-lived signed URL of the icon */
            iconUrl: string | null;
            id: string;
            /** @description Android package name or iOS bundle id */
            identifier: string;
            latestVersionId: string | null;
            name: string;
            /** @enum {string} */
            platform: "android" | "ios";
            versionCount: number;
        };
        DfAppInput: {
            /** @description A short-lived signed URL of the icon */
            iconUrl: string | null;
            id: string;
            /** @description Android package name or iOS bundle id */
            identifier: string;
            latestVersionId: string | null;
            name: string;
            /** @enum {string} */
            platform: "android" | "ios";
            versionCount: number;
        };
        DfAppVersion: {
            abis: string[];
            appId: string;
            createdAt: string;
            fileId: string;
            id: string;
            minOs: string;
            permissions: string[];
            sha256: string;
            size: number;
            targetOs: string;
            versionCode: string;
            versionName: string;
        };
        DfAppVersionInput: {
            abis: string[];
            appId: string;
            createdAt: string;
            fileId: string;
            id: string;
            minOs: string;
            permissions: string[];
            sha256: string;
            size: number;
            targetOs: string;
            versionCode: string;
            versionName: string;
        };
        DfClientConfig: {
            apiBasePath: string;
            debugTunnelPath: string;
            devtoolsPath: string;
            sessionIdleTimeoutSeconds: number;
            viewerSocketPath: string;
            webDriverPath: string;
            workspaceId: number;
        };
        DfClientConfigInput: {
            apiBasePath: string;
            debugTunnelPath: string;
            devtoolsPath: string;
            sessionIdleTimeoutSeconds: number;
            viewerSocketPath: string;
            webDriverPath: string;
            workspaceId: number;
        };
        DfctlFile: {
            /**
             * @description npm-tarball: `npm install -g <url>`; script: one file to run with `node`
             * @enum {string}
             */
            kind: "npm-tarball" | "script";
            /** @description The file name */
            name: string;
            /** @description Hex SHA-256 of the file */
            sha256: string;
            /** @description Bytes */
            size: number;
            /** @description Absolute download URL (public: no credential needed) */
            url: string;
        };
        DfctlFileInput: {
            /**
             * @description npm-tarball: `npm install -g <url>`; script: one file to run with `node`
             * @enum {string}
             */
            kind: "npm-tarball" | "script";
            /** @description The file name */
            name: string;
            /** @description Hex SHA-256 of the file */
            sha256: string;
            /** @description Bytes */
            size: number;
            /** @description Absolute download URL (public: no credential needed) */
            url: string;
        };
        DfctlManifest: {
            files: components["schemas"]["DfctlFile"][];
            /** @description The command that installs it on a machine with Node.js */
            install: string;
            /** @constant */
            name: "dfctl";
            /** @description The Node.js versions it runs on */
            node: string;
            version: string;
        };
        DfctlManifestInput: {
            files: components["schemas"]["DfctlFileInput"][];
            /** @description The command that installs it on a machine with Node.js */
            install: string;
            /** @constant */
            name: "dfctl";
            /** @description The Node.js versions it runs on */
            node: string;
            version: string;
        };
        DfDashboardStats: {
            at: string;
            bookingsToday: number;
            devices: {
                byHost: {
                    count: number;
                    value: string;
                }[];
                byPlatform: {
                    count: number;
                    value: string;
                }[];
                byStatus: {
                    count: number;
                    value: string;
                }[];
                total: number;
            };
            failuresLastDay: number;
            sessionsRunning: number;
        };
        DfDashboardStatsInput: {
            at: string;
            bookingsToday: number;
            devices: {
                byHost: {
                    count: number;
                    value: string;
                }[];
                byPlatform: {
                    count: number;
                    value: string;
                }[];
                byStatus: {
                    count: number;
                    value: string;
                }[];
                total: number;
            };
            failuresLastDay: number;
            sessionsRunning: number;
        };
        DfDebugCapabilities: {
            platform: string;
            protocols: {
                available: boolean;
                granted: boolean;
                /** @enum {string} */
                name: "adb" | "jdwp" | "tcp_forward" | "cdp" | "usbmux" | "lldb_rsp" | "webkit_inspector";
            }[];
        };
        DfDebugCapabilitiesInput: {
            platform: string;
            protocols: {
                available: boolean;
                granted: boolean;
                /** @enum {string} */
                name: "adb" | "jdwp" | "tcp_forward" | "cdp" | "usbmux" | "lldb_rsp" | "webkit_inspector";
            }[];
        };
        DfDebugTarget: {
            id: string;
            /** @enum {string} */
            kind: "process" | "webview" | "page" | "device";
            package?: string;
            pid?: number;
            /** @enum {string} */
            protocol: "adb" | "jdwp" | "tcp_forward" | "cdp" | "usbmux" | "lldb_rsp" | "webkit_inspector";
            title: string;
            tunnelPath: string;
        };
        DfDebugTargetInput: {
            id: string;
            /** @enum {string} */
            kind: "process" | "webview" | "page" | "device";
            package?: string;
            pid?: number;
            /** @enum {string} */
            protocol: "adb" | "jdwp" | "tcp_forward" | "cdp" | "usbmux" | "lldb_rsp" | "webkit_inspector";
            title: string;
            tunnelPath: string;
        };
        DfDevice: {
            alias: string | null;
            capabilities: components["schemas"]["DfDeviceCapabilities"];
            favorite: boolean;
            health: components["schemas"]["DfDeviceHealth"];
            hubId: string;
            id: string;
            isRealDevice: boolean;
            lastSeenAt: string;
            manufacturer: string;
            mending: components["schemas"]["DfDeviceMending"];
            model: string;
            name: string;
            nodeName: string;
            osVersion: string;
            platform: string;
            provider: string;
            screen: {
                height: number;
                scale: number;
                width: number;
            };
            sessionType: string | null;
            /** @description `available`, `in_use`, `reserved`, `mending` (being mended: refused with 409 `DEVICE_MENDING` until it ends; `mending` says the step), `offline`, `maintenance` */
            status: string;
            type: string;
        };
        DfDeviceApp: {
            packageName: string;
            system: boolean;
        };
        DfDeviceAppInput: {
            packageName: string;
            system: boolean;
        };
        DfDeviceBaseline: {
            at: string;
            deviceId: string;
            /** @description The baseline now kept: `namespace/key` → value (null: the device has no such setting, and a session that sets it has it deleted again) */
            settings: {
                [key: string]: string | null;
            };
        };
        DfDeviceBaselineInput: {
            at: string;
            deviceId: string;
            /** @description The baseline now kept: `namespace/key` → value (null: the device has no such setting, and a session that sets it has it deleted again) */
            settings: {
                [key: string]: string | null;
            };
        };
        /** @description How the device shows its screen and takes input (`input: none`: view-only), as its host last reported; null until a session has prepared it */
        DfDeviceCapabilities: {
            /** @enum {string} */
            input?: "minitouch" | "agent" | "input" | "wda" | "cdp" | "none";
            /** @description Why the device runs on a fallback path or is view-only */
            reason?: string;
            /** @enum {string} */
            screen?: "minicap" | "screencap" | "wda-mjpeg" | "screenshotr" | "instruments" | "cdp";
            /** @enum {string} */
            text?: "ime" | "input";
        } | null;
        /** @description How the device shows its screen and takes input (`input: none`: view-only), as its host last reported; null until a session has prepared it */
        DfDeviceCapabilitiesInput: {
            /** @enum {string} */
            input?: "minitouch" | "agent" | "input" | "wda" | "cdp" | "none";
            /** @description Why the device runs on a fallback path or is view-only */
            reason?: string;
            /** @enum {string} */
            screen?: "minicap" | "screencap" | "wda-mjpeg" | "screenshotr" | "instruments" | "cdp";
            /** @enum {string} */
            text?: "ime" | "input";
        } | null;
        DfDeviceFile: {
            mode: number;
            modifiedAt: string | null;
            name: string;
            size: number;
            /** @enum {string} */
            type: "file" | "directory" | "other";
        };
        DfDeviceFileInput: {
            mode: number;
            modifiedAt: string | null;
            name: string;
            size: number;
            /** @enum {string} */
            type: "file" | "directory" | "other";
        };
        DfDeviceFilterOptions: {
            model: {
                count: number;
                value: string;
            }[];
            nodeName: {
                count: number;
                value: string;
            }[];
            osVersion: {
                count: number;
                value: string;
            }[];
            platform: {
                count: number;
                value: string;
            }[];
            status: {
                count: number;
                value: string;
            }[];
            type: {
                count: number;
                value: string;
            }[];
        };
        DfDeviceFilterOptionsInput: {
            model: {
                count: number;
                value: string;
            }[];
            nodeName: {
                count: number;
                value: string;
            }[];
            osVersion: {
                count: number;
                value: string;
            }[];
            platform: {
                count: number;
                value: string;
            }[];
            status: {
                count: number;
                value: string;
            }[];
            type: {
                count: number;
                value: string;
            }[];
        };
        /** @description The device health as its last change left it: `cooling`, `charging`, `quarantined` and `maintenance` hold it out of use (409 `DEVICE_UNHEALTHY`), `degraded` warns; battery and storage are those of the reading that changed it (the readings: `GET /df/api/devices/{id}/health`). Null until its first reading. */
        DfDeviceHealth: {
            battery?: {
                charging: boolean;
                level: number;
                temperatureC?: number;
            };
            checkedAt: string;
            reasons: string[];
            /** @enum {string} */
            state: "healthy" | "degraded" | "cooling" | "charging" | "quarantined" | "maintenance";
            storageFreeMb?: number;
            until?: string;
        } | null;
        /** @description The device health as its last change left it: `cooling`, `charging`, `quarantined` and `maintenance` hold it out of use (409 `DEVICE_UNHEALTHY`), `degraded` warns; battery and storage are those of the reading that changed it (the readings: `GET /df/api/devices/{id}/health`). Null until its first reading. */
        DfDeviceHealthInput: {
            battery?: {
                charging: boolean;
                level: number;
                temperatureC?: number;
            };
            checkedAt: string;
            reasons: string[];
            /** @enum {string} */
            state: "healthy" | "degraded" | "cooling" | "charging" | "quarantined" | "maintenance";
            storageFreeMb?: number;
            until?: string;
        } | null;
        DfDeviceHealthSamples: {
            /** @description When an administrator last had its settings baseline re-taken (`POST /df/api/devices/{id}/baseline`); null: never, the baseline is the device as it joined */
            baselineRetakenAt: string | null;
            deviceId: string;
            health: {
                battery?: {
                    charging: boolean;
                    level: number;
                    temperatureC?: number;
                };
                checkedAt: string;
                reasons: string[];
                /** @enum {string} */
                state: "healthy" | "degraded" | "cooling" | "charging" | "quarantined" | "maintenance";
                storageFreeMb?: number;
                until?: string;
            } | null;
            /** @description The newest mending steps its host ran (newest first, 20 at most): reconnecting a lost link, restarting its helpers, freeing its storage, rebooting it, each with its result */
            mending: {
                at: string;
                attempt: number;
                error?: string;
                /** @enum {string} */
                result: "ok" | "failed" | "skipped";
                /** @enum {string} */
                step: "reconnect" | "restart-helpers" | "free-storage" | "reboot";
            }[];
            samples: components["schemas"]["DfHealthSample"][];
        };
        DfDeviceHealthSamplesInput: {
            /** @description When an administrator last had its settings baseline re-taken (`POST /df/api/devices/{id}/baseline`); null: never, the baseline is the device as it joined */
            baselineRetakenAt: string | null;
            deviceId: string;
            health: {
                battery?: {
                    charging: boolean;
                    level: number;
                    temperatureC?: number;
                };
                checkedAt: string;
                reasons: string[];
                /** @enum {string} */
                state: "healthy" | "degraded" | "cooling" | "charging" | "quarantined" | "maintenance";
                storageFreeMb?: number;
                until?: string;
            } | null;
            /** @description The newest mending steps its host ran (newest first, 20 at most): reconnecting a lost link, restarting its helpers, freeing its storage, rebooting it, each with its result */
            mending: {
                at: string;
                attempt: number;
                error?: string;
                /** @enum {string} */
                result: "ok" | "failed" | "skipped";
                /** @enum {string} */
                step: "reconnect" | "restart-helpers" | "free-storage" | "reboot";
            }[];
            samples: components["schemas"]["DfHealthSampleInput"][];
        };
        DfDeviceInput: {
            alias: string | null;
            capabilities: components["schemas"]["DfDeviceCapabilitiesInput"];
            favorite: boolean;
            health: components["schemas"]["DfDeviceHealthInput"];
            hubId: string;
            id: string;
            isRealDevice: boolean;
            lastSeenAt: string;
            manufacturer: string;
            mending: components["schemas"]["DfDeviceMendingInput"];
            model: string;
            name: string;
            nodeName: string;
            osVersion: string;
            platform: string;
            provider: string;
            screen: {
                height: number;
                scale: number;
                width: number;
            };
            sessionType: string | null;
            /** @description `available`, `in_use`, `reserved`, `mending` (being mended: refused with 409 `DEVICE_MENDING` until it ends; `mending` says the step), `offline`, `maintenance` */
            status: string;
            type: string;
        };
        /** @description The mending under way (docs/modules/device-health.md, "Mending"): since when, until when at the latest, and the step begun last (`reboot` while it reboots; null before the host said one). While it lasts the device is `mending` and every allocation leaves it (409 `DEVICE_MENDING` when asked for by id; a WebDriver request waits for it). Null: none. */
        DfDeviceMending: {
            since: string;
            step: ("reconnect" | "restart-helpers" | "free-storage" | "reboot") | null;
            until: string;
        } | null;
        /** @description The mending under way (docs/modules/device-health.md, "Mending"): since when, until when at the latest, and the step begun last (`reboot` while it reboots; null before the host said one). While it lasts the device is `mending` and every allocation leaves it (409 `DEVICE_MENDING` when asked for by id; a WebDriver request waits for it). Null: none. */
        DfDeviceMendingInput: {
            since: string;
            step: ("reconnect" | "restart-helpers" | "free-storage" | "reboot") | null;
            until: string;
        } | null;
        DfDeviceUsageRow: {
            deviceId: string;
            deviceName: string;
            minutesInSession: number;
            minutesOnline: number;
            period: string;
            sessions: number;
            utilisation: number | null;
        };
        DfDeviceUsageRowInput: {
            deviceId: string;
            deviceName: string;
            minutesInSession: number;
            minutesOnline: number;
            period: string;
            sessions: number;
            utilisation: number | null;
        };
        DfFile: {
            appId?: string;
            contentType: string;
            createdAt: string;
            id: string;
            /** @enum {string} */
            kind: "app" | "file";
            name: string;
            sha256: string | null;
            size: number;
            /** @enum {string} */
            status: "pending" | "ready" | "failed";
            uploadedBy: number;
            versionId?: string;
        };
        DfFileInput: {
            appId?: string;
            contentType: string;
            createdAt: string;
            id: string;
            /** @enum {string} */
            kind: "app" | "file";
            name: string;
            sha256: string | null;
            size: number;
            /** @enum {string} */
            status: "pending" | "ready" | "failed";
            uploadedBy: number;
            versionId?: string;
        };
        /** @description A company’s health thresholds: battery below `batteryMinPercent` (0–100) and not charging holds a device `charging`; battery above `temperatureMaxC` (20–80) holds it `cooling`; free storage below `storageMinMb` (0–1,000,000) makes it `degraded` and has it mended; `rebootAllowed` (a boolean, default false) lets mending reboot it before it is quarantined; after `failedSessionsMax` (0–100, default 0: off) sessions in a row failed on a device (its runner set the outcome `failed`, it could not be prepared, or it ended `device-error`, `device-reset` or `webdriver-session-failed`; a `passed` one starts the count again) it is quarantined; `fastPathDownDegrades` (a boolean, default true) makes a device whose reading says a fast path is `down` (minicap, the touch path) `degraded`, never held, and has its helpers restarted. */
        DfHealthRules: {
            batteryMinPercent: number;
            /** @default 0 */
            failedSessionsMax: number;
            /** @default true */
            fastPathDownDegrades: boolean;
            /** @default false */
            rebootAllowed: boolean;
            storageMinMb: number;
            temperatureMaxC: number;
        };
        /** @description A company’s health thresholds: battery below `batteryMinPercent` (0–100) and not charging holds a device `charging`; battery above `temperatureMaxC` (20–80) holds it `cooling`; free storage below `storageMinMb` (0–1,000,000) makes it `degraded` and has it mended; `rebootAllowed` (a boolean, default false) lets mending reboot it before it is quarantined; after `failedSessionsMax` (0–100, default 0: off) sessions in a row failed on a device (its runner set the outcome `failed`, it could not be prepared, or it ended `device-error`, `device-reset` or `webdriver-session-failed`; a `passed` one starts the count again) it is quarantined; `fastPathDownDegrades` (a boolean, default true) makes a device whose reading says a fast path is `down` (minicap, the touch path) `degraded`, never held, and has its helpers restarted. */
        DfHealthRulesInput: {
            batteryMinPercent: number;
            /** @default 0 */
            failedSessionsMax: number;
            /** @default true */
            fastPathDownDegrades: boolean;
            /** @default false */
            rebootAllowed: boolean;
            storageMinMb: number;
            temperatureMaxC: number;
        };
        DfHealthSample: {
            airplaneMode?: boolean;
            battery?: {
                charging: boolean;
                /** @enum {string} */
                health?: "good" | "overheat" | "dead" | "over_voltage" | "failure" | "cold" | "unknown";
                level: number;
                temperatureC?: number;
            };
            checkedAt: string;
            fastPaths?: {
                screen?: {
                    reason?: string;
                    /** @enum {string} */
                    state: "up" | "down" | "unavailable";
                };
                touch?: {
                    reason?: string;
                    /** @enum {string} */
                    state: "up" | "down" | "unavailable";
                };
            };
            lastCommandMs?: number;
            linkReconnects?: number;
            memory?: {
                availableMb?: number;
                totalMb: number;
            };
            osVersion?: string;
            screenLocked?: boolean;
            sdcardFreeMb?: number;
            storageFreeMb?: number;
            thermalStatus?: number;
            uptimeS?: number;
            wda?: {
                answering: boolean;
                reason?: string;
            };
            wifi?: {
                connected: boolean;
                on: boolean;
            };
        };
        DfHealthSampleInput: {
            airplaneMode?: boolean;
            battery?: {
                charging: boolean;
                /** @enum {string} */
                health?: "good" | "overheat" | "dead" | "over_voltage" | "failure" | "cold" | "unknown";
                level: number;
                temperatureC?: number;
            };
            checkedAt: string;
            fastPaths?: {
                screen?: {
                    reason?: string;
                    /** @enum {string} */
                    state: "up" | "down" | "unavailable";
                };
                touch?: {
                    reason?: string;
                    /** @enum {string} */
                    state: "up" | "down" | "unavailable";
                };
            };
            lastCommandMs?: number;
            linkReconnects?: number;
            memory?: {
                availableMb?: number;
                totalMb: number;
            };
            osVersion?: string;
            screenLocked?: boolean;
            sdcardFreeMb?: number;
            storageFreeMb?: number;
            thermalStatus?: number;
            uptimeS?: number;
            wda?: {
                answering: boolean;
                reason?: string;
            };
            wifi?: {
                connected: boolean;
                on: boolean;
            };
        };
        DfHost: {
            createdAt: string;
            devices: {
                online: number;
                total: number;
            };
            /** @description When the host first connected; null while it never has */
            firstConnectedAt: string | null;
            id: string;
            name: string;
            revokedAt: string | null;
            /**
             * @description pending: enrolled, waiting for its first connection; active: it has connected
             * @enum {string}
             */
            status: "pending" | "active" | "revoked";
            tokenPrefix: string;
            updatedAt: string;
            /** @description Workspaces its devices serve; null for every workspace of the company */
            workspaceIds: number[] | null;
        };
        DfHostEnrolment: {
            id: string;
            name: string;
            /** @description dfh_...: shown in this answer only */
            token: string;
            workspaceIds: number[] | null;
        };
        DfHostEnrolmentInput: {
            id: string;
            name: string;
            /** @description dfh_...: shown in this answer only */
            token: string;
            workspaceIds: number[] | null;
        };
        DfHostInput: {
            createdAt: string;
            devices: {
                online: number;
                total: number;
            };
            /** @description When the host first connected; null while it never has */
            firstConnectedAt: string | null;
            id: string;
            name: string;
            revokedAt: string | null;
            /**
             * @description pending: enrolled, waiting for its first connection; active: it has connected
             * @enum {string}
             */
            status: "pending" | "active" | "revoked";
            tokenPrefix: string;
            updatedAt: string;
            /** @description Workspaces its devices serve; null for every workspace of the company */
            workspaceIds: number[] | null;
        };
        DfMostUsedDevice: {
            deviceId: string;
            deviceName: string;
            minutesInSession: number;
            sessions: number;
        };
        DfMostUsedDeviceInput: {
            deviceId: string;
            deviceName: string;
            minutesInSession: number;
            sessions: number;
        };
        DfOperation: {
            createdAt: string;
            error: {
                code: string;
                message: string;
            } | null;
            id: string;
            progress: number;
            result: {
                [key: string]: unknown;
            } | null;
            /**
             * @description pending → running → succeeded | failed | cancelled; the last three are final
             * @enum {string}
             */
            state: "pending" | "running" | "succeeded" | "failed" | "cancelled";
            type: string;
            updatedAt: string;
        };
        DfOperationInput: {
            createdAt: string;
            error: {
                code: string;
                message: string;
            } | null;
            id: string;
            progress: number;
            result: {
                [key: string]: unknown;
            } | null;
            /**
             * @description pending → running → succeeded | failed | cancelled; the last three are final
             * @enum {string}
             */
            state: "pending" | "running" | "succeeded" | "failed" | "cancelled";
            type: string;
            updatedAt: string;
        };
        DfQuotas: {
            limits: {
                apiKeys: number | null;
                concurrentSessions: number | null;
                reservationHoursPerMonth: number | null;
                sessionMinutesPerMonth: number | null;
                storageBytes: number | null;
            };
            plan: string;
            usage: {
                apiKeys: number;
                concurrentSessions: number;
                reservationHoursPerMonth: number;
                sessionMinutesPerMonth: number;
                storageBytes: number;
            };
        };
        DfQuotasInput: {
            limits: {
                apiKeys: number | null;
                concurrentSessions: number | null;
                reservationHoursPerMonth: number | null;
                sessionMinutesPerMonth: number | null;
                storageBytes: number | null;
            };
            plan: string;
            usage: {
                apiKeys: number;
                concurrentSessions: number;
                reservationHoursPerMonth: number;
                sessionMinutesPerMonth: number;
                storageBytes: number;
            };
        };
        DfReservation: {
            createdAt: string;
            deviceId: string;
            endAt: string;
            id: string;
            /** @description An administrator took the device into maintenance for part of the booking (`POST /df/api/devices/{id}/maintenance`): why, until when, and when the booking was told. The booking is kept (the maintenance may end early); while the maintenance lasts, sessions on the device are refused with 409 `DEVICE_UNHEALTHY`. A booking made or moved into a maintenance under way is told the same way at once. Null when no maintenance falls in its range (lifted when the maintenance ends or the booking is moved out of it). */
            maintenanceConflict: {
                notedAt: string;
                reason: string;
                until: string;
            } | null;
            note: string | null;
            startAt: string;
            /** @enum {string} */
            status: "scheduled" | "active" | "ended" | "cancelled" | "expired";
            userId: number;
            workspaceId: number;
        };
        DfReservationInput: {
            createdAt: string;
            deviceId: string;
            endAt: string;
            id: string;
            /** @description An administrator took the device into maintenance for part of the booking (`POST /df/api/devices/{id}/maintenance`): why, until when, and when the booking was told. The booking is kept (the maintenance may end early); while the maintenance lasts, sessions on the device are refused with 409 `DEVICE_UNHEALTHY`. A booking made or moved into a maintenance under way is told the same way at once. Null when no maintenance falls in its range (lifted when the maintenance ends or the booking is moved out of it). */
            maintenanceConflict: {
                notedAt: string;
                reason: string;
                until: string;
            } | null;
            note: string | null;
            startAt: string;
            /** @enum {string} */
            status: "scheduled" | "active" | "ended" | "cancelled" | "expired";
            userId: number;
            workspaceId: number;
        };
        DfReservationReportRow: {
            bookedHours: number;
            bookings: number;
            cancelled: number;
            noShows: number;
            period: string;
            used: number;
        };
        DfReservationReportRowInput: {
            bookedHours: number;
            bookings: number;
            cancelled: number;
            noShows: number;
            period: string;
            used: number;
        };
        DfSession: {
            buildName: string | null;
            deviceId: string;
            deviceName: string;
            endedAt: string | null;
            endReason: string | null;
            id: string;
            lastActivityAt: string;
            metadata: {
                [key: string]: unknown;
            };
            name: string;
            /** @description The test outcome its runner set; null while none is set */
            outcome: ("passed" | "failed") | null;
            /** @description Why, when the runner said (the first failure) */
            outcomeReason: string | null;
            ownerId: number;
            readyAt: string | null;
            screen: {
                height: number;
                scale: number;
                width: number;
            } | null;
            startedAt: string;
            status: string;
            type: string;
            workspaceId: number;
        };
        DfSessionActivity: {
            actorId: string | null;
            at: string;
            detail: {
                [key: string]: unknown;
            };
            id: string;
            kind: string;
        };
        DfSessionActivityInput: {
            actorId: string | null;
            at: string;
            detail: {
                [key: string]: unknown;
            };
            id: string;
            kind: string;
        };
        DfSessionArtifact: {
            contentType: string;
            createdAt: string;
            downloadUrl: string;
            id: string;
            name: string;
            size: number;
            type: string;
        };
        DfSessionArtifactInput: {
            contentType: string;
            createdAt: string;
            downloadUrl: string;
            id: string;
            name: string;
            size: number;
            type: string;
        };
        DfSessionDefaults: {
            idleTimeoutSeconds: number;
            maxSessionSeconds: number;
            recordAutomation: boolean;
            recordByDefault: boolean;
            /** @enum {string} */
            screenshotFormat: "png" | "jpeg";
            videoRetentionDays: number | null;
        };
        DfSessionDefaultsInput: {
            idleTimeoutSeconds: number;
            maxSessionSeconds: number;
            recordAutomation: boolean;
            recordByDefault: boolean;
            /** @enum {string} */
            screenshotFormat: "png" | "jpeg";
            videoRetentionDays: number | null;
        };
        DfSessionEvidence: {
            /** @constant */
            format: "qa-session-evidence/1";
            keys: {
                keys: {
                    [key: string]: unknown;
                }[];
            };
            manifest: {
                artifacts: {
                    contentType: string;
                    createdAt: string;
                    /** @description The API path that answers its bytes */
                    download: string;
                    /** @description The name to save it under, unique within the manifest */
                    fileName: string;
                    id: string;
                    name: string;
                    /** @description SHA-256 of the stored bytes, hex */
                    sha256: string;
                    size: number;
                    /** @description screenshot, log, recording or video */
                    type: string;
                }[];
                companyId: number;
                events: {
                    chain: string;
                    /** @description The canonical encoding the hash covers, as in the audit bundle */
                    encoded: string;
                    hash: string;
                    position: string;
                    /** @description The hash of the chain's event before it: hash = SHA-256(previousHash ‖ encoded) */
                    previousHash: string;
                    seq: number;
                }[];
                exportedAt: string;
                /** @constant */
                format: "qa-session-evidence/1";
                session: {
                    [key: string]: unknown;
                };
                sessionId: string;
                timeline: {
                    [key: string]: unknown;
                }[];
                unavailable?: {
                    id: string;
                    name: string;
                    reason: string;
                    type: string;
                }[];
                webdriverLog: {
                    [key: string]: unknown;
                }[];
                workspaceId: number;
            };
            signature: {
                /** @constant */
                alg: "EdDSA";
                keyId: string;
                /** @description Ed25519 over the canonical encoding of `manifest`, base64url */
                value: string;
            };
        };
        DfSessionEvidenceInput: {
            /** @constant */
            format: "qa-session-evidence/1";
            keys: {
                keys: {
                    [key: string]: unknown;
                }[];
            };
            manifest: {
                artifacts: {
                    contentType: string;
                    createdAt: string;
                    /** @description The API path that answers its bytes */
                    download: string;
                    /** @description The name to save it under, unique within the manifest */
                    fileName: string;
                    id: string;
                    name: string;
                    /** @description SHA-256 of the stored bytes, hex */
                    sha256: string;
                    size: number;
                    /** @description screenshot, log, recording or video */
                    type: string;
                }[];
                companyId: number;
                events: {
                    chain: string;
                    /** @description The canonical encoding the hash covers, as in the audit bundle */
                    encoded: string;
                    hash: string;
                    position: string;
                    /** @description The hash of the chain's event before it: hash = SHA-256(previousHash ‖ encoded) */
                    previousHash: string;
                    seq: number;
                }[];
                exportedAt: string;
                /** @constant */
                format: "qa-session-evidence/1";
                session: {
                    [key: string]: unknown;
                };
                sessionId: string;
                timeline: {
                    [key: string]: unknown;
                }[];
                unavailable?: {
                    id: string;
                    name: string;
                    reason: string;
                    type: string;
                }[];
                webdriverLog: {
                    [key: string]: unknown;
                }[];
                workspaceId: number;
            };
            signature: {
                /** @constant */
                alg: "EdDSA";
                keyId: string;
                /** @description Ed25519 over the canonical encoding of `manifest`, base64url */
                value: string;
            };
        };
        DfSessionInput: {
            buildName: string | null;
            deviceId: string;
            deviceName: string;
            endedAt: string | null;
            endReason: string | null;
            id: string;
            lastActivityAt: string;
            metadata: {
                [key: string]: unknown;
            };
            name: string;
            /** @description The test outcome its runner set; null while none is set */
            outcome: ("passed" | "failed") | null;
            /** @description Why, when the runner said (the first failure) */
            outcomeReason: string | null;
            ownerId: number;
            readyAt: string | null;
            screen: {
                height: number;
                scale: number;
                width: number;
            } | null;
            startedAt: string;
            status: string;
            type: string;
            workspaceId: number;
        };
        DfSessionInvitation: {
            /** @enum {string} */
            access: "view" | "control";
            createdAt: string;
            email: string | null;
            expiresAt: string;
            id: string;
            maxUses: number | null;
            /** @enum {string} */
            type: "user" | "link";
            userId: number | null;
            uses: number;
        };
        DfSessionInvitationCreated: {
            /** @enum {string} */
            access: "view" | "control";
            createdAt: string;
            expiresAt: string;
            id: string;
            maxUses: number | null;
            token?: string;
            /** @enum {string} */
            type: "user" | "link";
            url?: string;
            uses: number;
        };
        DfSessionInvitationCreatedInput: {
            /** @enum {string} */
            access: "view" | "control";
            createdAt: string;
            expiresAt: string;
            id: string;
            maxUses: number | null;
            token?: string;
            /** @enum {string} */
            type: "user" | "link";
            url?: string;
            uses: number;
        };
        DfSessionInvitationInput: {
            /** @enum {string} */
            access: "view" | "control";
            createdAt: string;
            email: string | null;
            expiresAt: string;
            id: string;
            maxUses: number | null;
            /** @enum {string} */
            type: "user" | "link";
            userId: number | null;
            uses: number;
        };
        DfSessionReportRow: {
            averageMinutes: number;
            completed: number;
            failed: number;
            group: string | null;
            period: string;
            running: number;
            sessions: number;
            totalMinutes: number;
        };
        DfSessionReportRowInput: {
            averageMinutes: number;
            completed: number;
            failed: number;
            group: string | null;
            period: string;
            running: number;
            sessions: number;
            totalMinutes: number;
        };
        DfSessionVideo: {
            bytes: number;
            durationMs: number;
            /** @description The workspace's video retention removed it (at `expiredAt`): its routes answer 410 VIDEO_EXPIRED */
            expired: boolean;
            expiredAt: string | null;
            /** @constant */
            format: "mp4";
            recordingId: string;
            /** @description The recording's start: the video's first moment */
            startedAt: string;
            storedAt: string;
        };
        DfSessionVideoInput: {
            bytes: number;
            durationMs: number;
            /** @description The workspace's video retention removed it (at `expiredAt`): its routes answer 410 VIDEO_EXPIRED */
            expired: boolean;
            expiredAt: string | null;
            /** @constant */
            format: "mp4";
            recordingId: string;
            /** @description The recording's start: the video's first moment */
            startedAt: string;
            storedAt: string;
        };
        DfSessionViewer: {
            /** @enum {string} */
            access: "view" | "control";
            connectedAt: string;
            connections: number;
            name: string;
            userId: number;
        };
        DfSessionViewerInput: {
            /** @enum {string} */
            access: "view" | "control";
            connectedAt: string;
            connections: number;
            name: string;
            userId: number;
        };
        DfTestApk: {
            /** @description The instrumentation runner (`<instrumentation android:name>`) */
            runner: string;
            /** @description The package under test (`android:targetPackage`) */
            targetPackage: string;
            /** @description By class name, then method name */
            tests: components["schemas"]["DfTestMethod"][];
        };
        DfTestApkInput: {
            /** @description The instrumentation runner (`<instrumentation android:name>`) */
            runner: string;
            /** @description The package under test (`android:targetPackage`) */
            targetPackage: string;
            /** @description By class name, then method name */
            tests: components["schemas"]["DfTestMethodInput"][];
        };
        DfTestAttempt: {
            artifacts: {
                fileId: string;
                name: string;
                /** @description Where its bytes download (an artifact of the device session) */
                url?: string;
            }[];
            attempt: number;
            className: string;
            deviceId: string | null;
            durationMs: number;
            finishedAt: string;
            /** @description The device log between the test’s start and end */
            logcat: string[];
            message: string | null;
            methodName: string;
            /** @enum {string} */
            outcome: "passed" | "failed" | "errored" | "skipped" | "flaky";
            stack: string | null;
        };
        DfTestAttemptInput: {
            artifacts: {
                fileId: string;
                name: string;
                /** @description Where its bytes download (an artifact of the device session) */
                url?: string;
            }[];
            attempt: number;
            className: string;
            deviceId: string | null;
            durationMs: number;
            finishedAt: string;
            /** @description The device log between the test’s start and end */
            logcat: string[];
            message: string | null;
            methodName: string;
            /** @enum {string} */
            outcome: "passed" | "failed" | "errored" | "skipped" | "flaky";
            stack: string | null;
        };
        DfTestEvent: {
            durationMs: number | null;
            error: {
                message: string;
                stack?: string;
            } | null;
            id: string;
            metadata: {
                [key: string]: unknown;
            };
            name: string;
            reportedAt: string;
            suite: string | null;
            timestamp: string;
            /** @enum {string} */
            type: "suite_started" | "test_started" | "test_passed" | "test_failed" | "test_skipped" | "suite_finished";
        };
        DfTestEventInput: {
            durationMs: number | null;
            error: {
                message: string;
                stack?: string;
            } | null;
            id: string;
            metadata: {
                [key: string]: unknown;
            };
            name: string;
            reportedAt: string;
            suite: string | null;
            timestamp: string;
            /** @enum {string} */
            type: "suite_started" | "test_started" | "test_passed" | "test_failed" | "test_skipped" | "suite_finished";
        };
        DfTestMethod: {
            /** @description Runtime annotations of the class and the method, as Java names (`androidx.test.filters.LargeTest`), for filters */
            annotations: string[];
            /** @description Java name of the class the test runs in (`com.example.FooTest`, nested classes with `$`) */
            className: string;
            /** @description `@org.junit.Ignore` on the method or its class */
            ignored: boolean;
            methodName: string;
        };
        DfTestMethodInput: {
            /** @description Runtime annotations of the class and the method, as Java names (`androidx.test.filters.LargeTest`), for filters */
            annotations: string[];
            /** @description Java name of the class the test runs in (`com.example.FooTest`, nested classes with `$`) */
            className: string;
            /** @description `@org.junit.Ignore` on the method or its class */
            ignored: boolean;
            methodName: string;
        };
        DfTestProgress: {
            failed: number;
            passed: number;
            percent: number;
            running: number;
            skipped: number;
            started: number;
            total: number;
        };
        DfTestProgressInput: {
            failed: number;
            passed: number;
            percent: number;
            running: number;
            skipped: number;
            started: number;
            total: number;
        };
        DfTestRun: {
            appVersionId: string;
            basis: ("uniform" | "duration") | null;
            counts: {
                failed: number;
                flaky: number;
                notRun: number;
                passed: number;
                skipped: number;
                total: number;
            };
            devices: {
                [key: string]: unknown;
            };
            endedAt: string | null;
            id: string;
            name: string | null;
            projectId: string | null;
            queuedAt: string;
            reason: string | null;
            rerunOf: string | null;
            resultsReason: string | null;
            shards: {
                currentTest: string | null;
                deviceId: string;
                endedAt: string | null;
                reason: string | null;
                sessionId: string | null;
                startedAt: string | null;
                /** @enum {string} */
                state: "planned" | "running" | "completed" | "infrastructure-failed" | "cancelled";
                tests: number;
            }[];
            startedAt: string | null;
            /** @enum {string} */
            state: "queued" | "running" | "passed" | "failed" | "error" | "cancelled";
            strategy: {
                [key: string]: unknown;
            };
            testPackage: string;
            tests: {
                [key: string]: unknown;
            };
            testSessionId: string | null;
            testVersionId: string;
            total: number;
            userId: number;
        };
        DfTestRunAccepted: {
            id: string;
            /** @enum {string} */
            state: "queued" | "running" | "passed" | "failed" | "error" | "cancelled";
        };
        DfTestRunAcceptedInput: {
            id: string;
            /** @enum {string} */
            state: "queued" | "running" | "passed" | "failed" | "error" | "cancelled";
        };
        DfTestRunInput: {
            appVersionId: string;
            basis: ("uniform" | "duration") | null;
            counts: {
                failed: number;
                flaky: number;
                notRun: number;
                passed: number;
                skipped: number;
                total: number;
            };
            devices: {
                [key: string]: unknown;
            };
            endedAt: string | null;
            id: string;
            name: string | null;
            projectId: string | null;
            queuedAt: string;
            reason: string | null;
            rerunOf: string | null;
            resultsReason: string | null;
            shards: {
                currentTest: string | null;
                deviceId: string;
                endedAt: string | null;
                reason: string | null;
                sessionId: string | null;
                startedAt: string | null;
                /** @enum {string} */
                state: "planned" | "running" | "completed" | "infrastructure-failed" | "cancelled";
                tests: number;
            }[];
            startedAt: string | null;
            /** @enum {string} */
            state: "queued" | "running" | "passed" | "failed" | "error" | "cancelled";
            strategy: {
                [key: string]: unknown;
            };
            testPackage: string;
            tests: {
                [key: string]: unknown;
            };
            testSessionId: string | null;
            testVersionId: string;
            total: number;
            userId: number;
        };
        DfTestRunSummary: {
            appVersionId: string;
            counts: {
                failed: number;
                flaky: number;
                notRun: number;
                passed: number;
                skipped: number;
                total: number;
            } | null;
            endedAt: string | null;
            id: string;
            name: string | null;
            projectId: string | null;
            queuedAt: string;
            reason: string | null;
            startedAt: string | null;
            /** @enum {string} */
            state: "queued" | "running" | "passed" | "failed" | "error" | "cancelled";
            testPackage: string;
            testVersionId: string;
            total: number;
        };
        DfTestRunSummaryInput: {
            appVersionId: string;
            counts: {
                failed: number;
                flaky: number;
                notRun: number;
                passed: number;
                skipped: number;
                total: number;
            } | null;
            endedAt: string | null;
            id: string;
            name: string | null;
            projectId: string | null;
            queuedAt: string;
            reason: string | null;
            startedAt: string | null;
            /** @enum {string} */
            state: "queued" | "running" | "passed" | "failed" | "error" | "cancelled";
            testPackage: string;
            testVersionId: string;
            total: number;
        };
        Domain: {
            domain: string;
            /** @description The TXT record to publish: at `name`, with exactly `value` */
            verification: {
                name: string;
                /** @constant */
                type: "dns-txt";
                value: string;
            };
            /** @description When the company proved the domain is its own; null while unverified */
            verifiedAt: string | null;
        };
        DomainInput: {
            domain: string;
            /** @description The TXT record to publish: at `name`, with exactly `value` */
            verification: {
                name: string;
                /** @constant */
                type: "dns-txt";
                value: string;
            };
            /** @description When the company proved the domain is its own; null while unverified */
            verifiedAt: string | null;
        };
        EngineRun: {
            completedAt: string | null;
            engineId: string;
            externalId: string | null;
            id: string;
            metadata: {
                [key: string]: unknown;
            };
            name: string | null;
            resultsReported: number;
            startedAt: string;
            /** @enum {string} */
            status: "running" | "passed" | "failed" | "error" | "cancelled";
            testSessionId: string;
        };
        EngineRunInput: {
            completedAt: string | null;
            engineId: string;
            externalId: string | null;
            id: string;
            metadata: {
                [key: string]: unknown;
            };
            name: string | null;
            resultsReported: number;
            startedAt: string;
            /** @enum {string} */
            status: "running" | "passed" | "failed" | "error" | "cancelled";
            testSessionId: string;
        };
        Erasure: {
            /** @description When the person was erased (the first time, when erased before) */
            erasedAt: string;
            /**
             * @description Whether the read models that keep personal data hold the placeholders yet
             * @enum {string}
             */
            readModels: "done" | "rebuilding";
            /** @description Read models emptied and replayed */
            rebuilt: string[];
            /** @description Read models whose rows of the person were rewritten in place (they kept answering) */
            rewritten: string[];
            userId: number;
        };
        ErasureInput: {
            /** @description When the person was erased (the first time, when erased before) */
            erasedAt: string;
            /**
             * @description Whether the read models that keep personal data hold the placeholders yet
             * @enum {string}
             */
            readModels: "done" | "rebuilding";
            /** @description Read models emptied and replayed */
            rebuilt: string[];
            /** @description Read models whose rows of the person were rewritten in place (they kept answering) */
            rewritten: string[];
            userId: number;
        };
        ErrorResponse: {
            /** @description Stable, machine-readable error code */
            code: string;
            details?: ({
                message: string;
                path: string;
            } & {
                [key: string]: unknown;
            })[];
            error: string;
            message: string;
            statusCode: number;
        };
        ErrorResponseInput: {
            /** @description Stable, machine-readable error code */
            code: string;
            details?: ({
                message: string;
                path: string;
            } & {
                [key: string]: unknown;
            })[];
            error: string;
            message: string;
            statusCode: number;
        };
        HealthCheck: {
            createdAt: string;
            createdBy: number;
            description: string;
            dueBy: string | null;
            graceSeconds: number;
            heartbeatCount: number;
            id: string;
            intervalSeconds: number;
            lastHeartbeatAt: string | null;
            name: string;
            /** @enum {string} */
            status: "new" | "up" | "down" | "paused";
            statusChangedAt: string;
            tags: string[];
            tokenPrefix: string;
            updatedAt: string;
            workspaceId: number;
        };
        HealthcheckApiKey: {
            createdAt: string;
            createdBy: number;
            id: string;
            name: string;
            /** @description Made from a password sign-in while its company requires single sign-on: refused until an administrator approves it */
            needsApproval: boolean;
            prefix: string;
            revoked: boolean;
            revokedAt: string | null;
            /**
             * @description How its creator was signed in when they made it
             * @enum {string}
             */
            signIn: "password" | "sso";
            workspaceId: number;
        };
        HealthcheckApiKeyInput: {
            createdAt: string;
            createdBy: number;
            id: string;
            name: string;
            /** @description Made from a password sign-in while its company requires single sign-on: refused until an administrator approves it */
            needsApproval: boolean;
            prefix: string;
            revoked: boolean;
            revokedAt: string | null;
            /**
             * @description How its creator was signed in when they made it
             * @enum {string}
             */
            signIn: "password" | "sso";
            workspaceId: number;
        };
        HealthCheckInput: {
            createdAt: string;
            createdBy: number;
            description: string;
            dueBy: string | null;
            graceSeconds: number;
            heartbeatCount: number;
            id: string;
            intervalSeconds: number;
            lastHeartbeatAt: string | null;
            name: string;
            /** @enum {string} */
            status: "new" | "up" | "down" | "paused";
            statusChangedAt: string;
            tags: string[];
            tokenPrefix: string;
            updatedAt: string;
            workspaceId: number;
        };
        HealthCheckMetricSample: {
            at: string;
            name: string;
            receivedAt: string;
            tags: {
                [key: string]: string;
            };
            unit: string | null;
            value: number;
        };
        HealthCheckMetricSampleInput: {
            at: string;
            name: string;
            receivedAt: string;
            tags: {
                [key: string]: string;
            };
            unit: string | null;
            value: number;
        };
        IdentityProvider: {
            /** @description Without its secrets (write-only) */
            config: {
                [key: string]: unknown;
            };
            createdAt: string;
            domains: string[];
            enabled: boolean;
            /** @description Password sign-in refused (403 SSO_REQUIRED) for addresses of these domains */
            enforce: boolean;
            id: number;
            /** @description Create the user at their first sign-in */
            jitProvisioning: boolean;
            mappings: {
                claim?: string;
                group?: string;
                roleIds: number[];
                teamIds: number[];
                value?: string;
                workspaceIds: number[];
            }[];
            name: string;
            /** @description Which secrets of the configuration are set */
            secretsSet: string[];
            /** @enum {string} */
            type: "oidc" | "saml" | "ldap";
            updatedAt: string;
        };
        IdentityProviderInput: {
            /** @description Without its secrets (write-only) */
            config: {
                [key: string]: unknown;
            };
            createdAt: string;
            domains: string[];
            enabled: boolean;
            /** @description Password sign-in refused (403 SSO_REQUIRED) for addresses of these domains */
            enforce: boolean;
            id: number;
            /** @description Create the user at their first sign-in */
            jitProvisioning: boolean;
            mappings: {
                claim?: string;
                group?: string;
                roleIds: number[];
                teamIds: number[];
                value?: string;
                workspaceIds: number[];
            }[];
            name: string;
            /** @description Which secrets of the configuration are set */
            secretsSet: string[];
            /** @enum {string} */
            type: "oidc" | "saml" | "ldap";
            updatedAt: string;
        };
        InvitedUser: {
            activatedAt: string | null;
            companyId: number;
            createdAt: string;
            email: string;
            hasProfileImage: boolean;
            id: number;
            isAdmin: boolean;
            lastSignInAt: string | null;
            name: string;
            phone: string | null;
            /** @description Whether the address had a pending invitation that was sent again */
            resent: boolean;
            roleIds: number[];
            roles: {
                id: number;
                name: string;
            }[];
            /** @enum {string} */
            status: "passive" | "active" | "deactivated";
            title: string | null;
            username: string;
        };
        InvitedUserInput: {
            activatedAt: string | null;
            companyId: number;
            createdAt: string;
            email: string;
            hasProfileImage: boolean;
            id: number;
            isAdmin: boolean;
            lastSignInAt: string | null;
            name: string;
            phone: string | null;
            /** @description Whether the address had a pending invitation that was sent again */
            resent: boolean;
            roleIds: number[];
            roles: {
                id: number;
                name: string;
            }[];
            /** @enum {string} */
            status: "passive" | "active" | "deactivated";
            title: string | null;
            username: string;
        };
        LoginRequest: {
            /** @description Alias of username */
            email?: string;
            password: string;
            /** @description An LDAP identity provider: sign in with its directory username and password */
            providerId?: number;
            /** @description Username or e-mail address */
            username?: string;
        };
        LoginRequestInput: {
            /** @description Alias of username */
            email?: string;
            password: string;
            /** @description An LDAP identity provider: sign in with its directory username and password */
            providerId?: number;
            /** @description Username or e-mail address */
            username?: string;
        };
        OAuthClient: {
            clientId: string;
            createdAt: string;
            createdBy: number;
            id: string;
            /** @description Last token issued or used; updated at most once a minute */
            lastUsedAt: string | null;
            name: string;
            /** @description Made from a password sign-in while its company requires single sign-on: refused until an administrator approves it */
            needsApproval: boolean;
            /** @description Requests per rate-limit window (RATE_LIMIT_WINDOW, a minute by default) this credential may make, counted apart from its user's own; null: the deployment's default for credentials (RATE_LIMIT_PER_CREDENTIAL). Set by holders of API_KEY_MANAGE */
            rateLimit: number | null;
            scopes: ("read" | "write" | "delete" | "admin" | "devices" | "webhooks")[];
            /**
             * @description How its creator was signed in when they made it
             * @enum {string}
             */
            signIn: "password" | "sso";
            workspaceId: number;
        };
        OAuthClientInput: {
            clientId: string;
            createdAt: string;
            createdBy: number;
            id: string;
            /** @description Last token issued or used; updated at most once a minute */
            lastUsedAt: string | null;
            name: string;
            /** @description Made from a password sign-in while its company requires single sign-on: refused until an administrator approves it */
            needsApproval: boolean;
            /** @description Requests per rate-limit window (RATE_LIMIT_WINDOW, a minute by default) this credential may make, counted apart from its user's own; null: the deployment's default for credentials (RATE_LIMIT_PER_CREDENTIAL). Set by holders of API_KEY_MANAGE */
            rateLimit: number | null;
            scopes: ("read" | "write" | "delete" | "admin" | "devices" | "webhooks")[];
            /**
             * @description How its creator was signed in when they made it
             * @enum {string}
             */
            signIn: "password" | "sso";
            workspaceId: number;
        };
        OAuthError: {
            /** @description The platform code (docs/api-conventions.md, "Errors") */
            code: string;
            details?: ({
                message: string;
                path: string;
            } & {
                [key: string]: unknown;
            })[];
            /**
             * @description RFC 6749 section 5.2; any other refusal (unstorable text, throttling) is invalid_request with its own status and code, a failure of the platform server_error or temporarily_unavailable
             * @enum {string}
             */
            error: "invalid_request" | "invalid_client" | "unauthorized_client" | "unsupported_grant_type" | "invalid_scope" | "server_error" | "temporarily_unavailable";
            error_description: string;
            message: string;
            statusCode: number;
        };
        OAuthErrorInput: {
            /** @description The platform code (docs/api-conventions.md, "Errors") */
            code: string;
            details?: ({
                message: string;
                path: string;
            } & {
                [key: string]: unknown;
            })[];
            /**
             * @description RFC 6749 section 5.2; any other refusal (unstorable text, throttling) is invalid_request with its own status and code, a failure of the platform server_error or temporarily_unavailable
             * @enum {string}
             */
            error: "invalid_request" | "invalid_client" | "unauthorized_client" | "unsupported_grant_type" | "invalid_scope" | "server_error" | "temporarily_unavailable";
            error_description: string;
            message: string;
            statusCode: number;
        };
        OAuthTokenResponse: {
            access_token: string;
            /** @description Seconds */
            expires_in: number;
            /** @description Space-separated scopes granted */
            scope: string;
            /** @constant */
            token_type: "Bearer";
        };
        OAuthTokenResponseInput: {
            access_token: string;
            /** @description Seconds */
            expires_in: number;
            /** @description Space-separated scopes granted */
            scope: string;
            /** @constant */
            token_type: "Bearer";
        };
        Observability: {
            /** @description docs/operations.md, "Metrics" */
            metrics: {
                /** @description METRICS_PORT: the port of their own where `/metrics` answers without a token (0: a free one picked at start); null when unset */
                port: number | null;
                /** @description Whether this process serves Prometheus metrics at all (METRICS_PORT or METRICS_TOKEN set) */
                served: boolean;
                /** @description METRICS_TOKEN is set: `/metrics` on the process’s own port answers to that bearer token only (the token is never shown) */
                tokenProtected: boolean;
            };
            /** @description Every process of the installation heard of within the last 45 s, the longest running first (docs/operations.md, "Every process") */
            processes: {
                /** @description A random id the process took at start (never its host name or address) */
                instanceId: string;
                /** @description docs/operations.md, "Metrics" */
                metrics: {
                    /** @description METRICS_PORT: the port of their own where `/metrics` answers without a token (0: a free one picked at start); null when unset */
                    port: number | null;
                    /** @description Whether this process serves Prometheus metrics at all (METRICS_PORT or METRICS_TOKEN set) */
                    served: boolean;
                    /** @description METRICS_TOKEN is set: `/metrics` on the process’s own port answers to that bearer token only (the token is never shown) */
                    tokenProtected: boolean;
                };
                /** @description When it last said it is there (every 15 s; a process not heard of for 45 s is left out) */
                seenAt: string;
                /** @description The services it runs (`SERVICES`): every one of them for a process that runs all */
                services: string[];
                startedAt: string;
                /** @description Whether it is the process answering this request */
                thisProcess: boolean;
                /** @description docs/operations.md, "Tracing" */
                tracing: {
                    /** @description Whether this process exports OpenTelemetry traces (an OTLP endpoint set, not disabled) */
                    enabled: boolean;
                    /** @description The OTLP exporter’s protocol; null when off. The endpoint and its headers are never shown */
                    protocol: ("http/protobuf" | "http/json") | null;
                    /** @description The ratio of the `traceidratio` samplers (OTEL_TRACES_SAMPLER_ARG, default 1); null when off */
                    ratio: number | null;
                    /** @description OTEL_TRACES_SAMPLER; null when off */
                    sampler: string | null;
                    /** @description `service.name` of this process’s spans; null when off */
                    serviceName: string | null;
                };
            }[];
            /** @description This very request, to find in the logs and the tracing backend */
            request: {
                /** @description This request’s id, as its `x-request-id` answer header and log lines carry it */
                requestId: string;
                /** @description The W3C trace id of this request, to look it up in the tracing backend; null when tracing is off or the request was not sampled */
                traceId: string | null;
            };
            /** @description docs/operations.md, "Tracing" */
            tracing: {
                /** @description Whether this process exports OpenTelemetry traces (an OTLP endpoint set, not disabled) */
                enabled: boolean;
                /** @description The OTLP exporter’s protocol; null when off. The endpoint and its headers are never shown */
                protocol: ("http/protobuf" | "http/json") | null;
                /** @description The ratio of the `traceidratio` samplers (OTEL_TRACES_SAMPLER_ARG, default 1); null when off */
                ratio: number | null;
                /** @description OTEL_TRACES_SAMPLER; null when off */
                sampler: string | null;
                /** @description `service.name` of this process’s spans; null when off */
                serviceName: string | null;
            };
        };
        ObservabilityInput: {
            /** @description docs/operations.md, "Metrics" */
            metrics: {
                /** @description METRICS_PORT: the port of their own where `/metrics` answers without a token (0: a free one picked at start); null when unset */
                port: number | null;
                /** @description Whether this process serves Prometheus metrics at all (METRICS_PORT or METRICS_TOKEN set) */
                served: boolean;
                /** @description METRICS_TOKEN is set: `/metrics` on the process’s own port answers to that bearer token only (the token is never shown) */
                tokenProtected: boolean;
            };
            /** @description Every process of the installation heard of within the last 45 s, the longest running first (docs/operations.md, "Every process") */
            processes: {
                /** @description A random id the process took at start (never its host name or address) */
                instanceId: string;
                /** @description docs/operations.md, "Metrics" */
                metrics: {
                    /** @description METRICS_PORT: the port of their own where `/metrics` answers without a token (0: a free one picked at start); null when unset */
                    port: number | null;
                    /** @description Whether this process serves Prometheus metrics at all (METRICS_PORT or METRICS_TOKEN set) */
                    served: boolean;
                    /** @description METRICS_TOKEN is set: `/metrics` on the process’s own port answers to that bearer token only (the token is never shown) */
                    tokenProtected: boolean;
                };
                /** @description When it last said it is there (every 15 s; a process not heard of for 45 s is left out) */
                seenAt: string;
                /** @description The services it runs (`SERVICES`): every one of them for a process that runs all */
                services: string[];
                startedAt: string;
                /** @description Whether it is the process answering this request */
                thisProcess: boolean;
                /** @description docs/operations.md, "Tracing" */
                tracing: {
                    /** @description Whether this process exports OpenTelemetry traces (an OTLP endpoint set, not disabled) */
                    enabled: boolean;
                    /** @description The OTLP exporter’s protocol; null when off. The endpoint and its headers are never shown */
                    protocol: ("http/protobuf" | "http/json") | null;
                    /** @description The ratio of the `traceidratio` samplers (OTEL_TRACES_SAMPLER_ARG, default 1); null when off */
                    ratio: number | null;
                    /** @description OTEL_TRACES_SAMPLER; null when off */
                    sampler: string | null;
                    /** @description `service.name` of this process’s spans; null when off */
                    serviceName: string | null;
                };
            }[];
            /** @description This very request, to find in the logs and the tracing backend */
            request: {
                /** @description This request’s id, as its `x-request-id` answer header and log lines carry it */
                requestId: string;
                /** @description The W3C trace id of this request, to look it up in the tracing backend; null when tracing is off or the request was not sampled */
                traceId: string | null;
            };
            /** @description docs/operations.md, "Tracing" */
            tracing: {
                /** @description Whether this process exports OpenTelemetry traces (an OTLP endpoint set, not disabled) */
                enabled: boolean;
                /** @description The OTLP exporter’s protocol; null when off. The endpoint and its headers are never shown */
                protocol: ("http/protobuf" | "http/json") | null;
                /** @description The ratio of the `traceidratio` samplers (OTEL_TRACES_SAMPLER_ARG, default 1); null when off */
                ratio: number | null;
                /** @description OTEL_TRACES_SAMPLER; null when off */
                sampler: string | null;
                /** @description `service.name` of this process’s spans; null when off */
                serviceName: string | null;
            };
        };
        ProjectPage: {
            content: components["schemas"]["V1Project"][];
            page: number;
            size: number;
            totalElements: number;
            totalPages: number;
        };
        ProjectPageInput: {
            content: components["schemas"]["V1ProjectInput"][];
            page: number;
            size: number;
            totalElements: number;
            totalPages: number;
        };
        Role: {
            builtIn: boolean;
            description: string;
            id: number;
            name: string;
            permissions: string[];
        };
        RoleInput: {
            builtIn: boolean;
            description: string;
            id: number;
            name: string;
            permissions: string[];
        };
        RoleUserPage: {
            content: components["schemas"]["User"][];
            page: number;
            size: number;
            totalElements: number;
            totalPages: number;
        };
        RoleUserPageInput: {
            content: components["schemas"]["UserInput"][];
            page: number;
            size: number;
            totalElements: number;
            totalPages: number;
        };
        ScimToken: {
            createdAt: string;
            createdBy: number;
            id: string;
            name: string;
            /** @description Made from a password sign-in while the company requires single sign-on: refused until an administrator approves it */
            needsApproval: boolean;
            /** @description The first characters of the token, to recognise it */
            prefix: string;
            revokedAt: string | null;
            /** @description Company roles every user it provisions is given */
            roleIds: number[];
            /**
             * @description How its creator was signed in when they made it
             * @enum {string}
             */
            signIn: "password" | "sso";
        };
        ScimTokenInput: {
            createdAt: string;
            createdBy: number;
            id: string;
            name: string;
            /** @description Made from a password sign-in while the company requires single sign-on: refused until an administrator approves it */
            needsApproval: boolean;
            /** @description The first characters of the token, to recognise it */
            prefix: string;
            revokedAt: string | null;
            /** @description Company roles every user it provisions is given */
            roleIds: number[];
            /**
             * @description How its creator was signed in when they made it
             * @enum {string}
             */
            signIn: "password" | "sso";
        };
        SignInPage: {
            content: {
                address: string;
                at: string;
                /** @description The identity provider the sign-in went through; null for a password sign-in */
                provider: {
                    id: number;
                    name: string;
                    /** @enum {string} */
                    type: "oidc" | "saml" | "ldap";
                } | null;
                reason: string | null;
                success: boolean;
                userAgent: string | null;
            }[];
            page: number;
            size: number;
            totalElements: number;
            totalPages: number;
        };
        SignInPageInput: {
            content: {
                address: string;
                at: string;
                /** @description The identity provider the sign-in went through; null for a password sign-in */
                provider: {
                    id: number;
                    name: string;
                    /** @enum {string} */
                    type: "oidc" | "saml" | "ldap";
                } | null;
                reason: string | null;
                success: boolean;
                userAgent: string | null;
            }[];
            page: number;
            size: number;
            totalElements: number;
            totalPages: number;
        };
        SignInSession: {
            /** @description Client address of the sign-in */
            address: string | null;
            /** @description When it began (sign-in or sign-up) */
            createdAt: string;
            /** @description Whether the token of this request belongs to it */
            current: boolean;
            /** @description When its refresh tokens stop working, whatever happens */
            expiresAt: string;
            /** @description The session id: the `sid` claim of its access tokens */
            id: string;
            /** @description Client address of that use */
            lastAddress: string | null;
            /** @description Its latest use by a request or a refresh, to about a minute */
            lastUsedAt: string;
            /**
             * @description How it began: `password` (or sign-up) or `sso` (an identity provider)
             * @enum {string}
             */
            method: "password" | "sso";
            /** @description User agent of the sign-in */
            userAgent: string | null;
        };
        SignInSessionInput: {
            /** @description Client address of the sign-in */
            address: string | null;
            /** @description When it began (sign-in or sign-up) */
            createdAt: string;
            /** @description Whether the token of this request belongs to it */
            current: boolean;
            /** @description When its refresh tokens stop working, whatever happens */
            expiresAt: string;
            /** @description The session id: the `sid` claim of its access tokens */
            id: string;
            /** @description Client address of that use */
            lastAddress: string | null;
            /** @description Its latest use by a request or a refresh, to about a minute */
            lastUsedAt: string;
            /**
             * @description How it began: `password` (or sign-up) or `sso` (an identity provider)
             * @enum {string}
             */
            method: "password" | "sso";
            /** @description User agent of the sign-in */
            userAgent: string | null;
        };
        SignInSessionPage: {
            content: components["schemas"]["SignInSession"][];
            page: number;
            size: number;
            totalElements: number;
            totalPages: number;
        };
        SignInSessionPageInput: {
            content: components["schemas"]["SignInSessionInput"][];
            page: number;
            size: number;
            totalElements: number;
            totalPages: number;
        };
        Team: {
            description: string;
            id: number;
            memberIds: number[];
            name: string;
        };
        TeamInput: {
            description: string;
            id: number;
            memberIds: number[];
            name: string;
        };
        TestEngine: {
            createdAt: string;
            id: string;
            labels: string[];
            name: string;
            /** @description Its token was made from a password sign-in while its company requires single sign-on: refused until an administrator approves the engine */
            needsApproval: boolean;
            registeredBy: number;
            revoked: boolean;
            revokedAt: string | null;
            /**
             * @description How the maker of its current token was signed in when they made it
             * @enum {string}
             */
            signIn: "password" | "sso";
            tokenPrefix: string;
            tokenRotatedAt: string | null;
            workspaceId: number;
        };
        TestEngineInput: {
            createdAt: string;
            id: string;
            labels: string[];
            name: string;
            /** @description Its token was made from a password sign-in while its company requires single sign-on: refused until an administrator approves the engine */
            needsApproval: boolean;
            registeredBy: number;
            revoked: boolean;
            revokedAt: string | null;
            /**
             * @description How the maker of its current token was signed in when they made it
             * @enum {string}
             */
            signIn: "password" | "sso";
            tokenPrefix: string;
            tokenRotatedAt: string | null;
            workspaceId: number;
        };
        TmtAttachment: {
            contentType: string;
            createdAt: string;
            filename: string;
            id: string;
            sha256: string;
            size: number;
            uploadedBy: number;
            workspaceId: number;
        };
        TmtAttachmentInput: {
            contentType: string;
            createdAt: string;
            filename: string;
            id: string;
            sha256: string;
            size: number;
            uploadedBy: number;
            workspaceId: number;
        };
        TmtAttachmentPage: {
            content: components["schemas"]["TmtAttachment"][];
            page: number;
            size: number;
            totalElements: number;
            totalPages: number;
        };
        TmtAttachmentPageInput: {
            content: components["schemas"]["TmtAttachmentInput"][];
            page: number;
            size: number;
            totalElements: number;
            totalPages: number;
        };
        TmtDownloadLink: {
            absoluteUrl: string;
            expiresAt: string;
            id: string;
            kind: string;
            url: string;
        };
        TmtDownloadLinkInput: {
            absoluteUrl: string;
            expiresAt: string;
            id: string;
            kind: string;
            url: string;
        };
        TmtMockService: {
            calls: {
                count: number;
                lastCalledAt: string | null;
            };
            createdAt: string;
            createdBy: number;
            enabled: boolean;
            id: string;
            module: string;
            name: string;
            publicId: string;
            publicPath: string;
            publicUrl: string;
            routes: {
                body?: unknown;
                delayMs: number;
                headers: {
                    [key: string]: string;
                };
                /** @enum {string} */
                method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE" | "HEAD" | "OPTIONS" | "ANY";
                path: string;
                status: number;
            }[];
            updatedAt: string;
        };
        TmtMockServiceInput: {
            calls: {
                count: number;
                lastCalledAt: string | null;
            };
            createdAt: string;
            createdBy: number;
            enabled: boolean;
            id: string;
            module: string;
            name: string;
            publicId: string;
            publicPath: string;
            publicUrl: string;
            routes: {
                body?: unknown;
                delayMs: number;
                headers: {
                    [key: string]: string;
                };
                /** @enum {string} */
                method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE" | "HEAD" | "OPTIONS" | "ANY";
                path: string;
                status: number;
            }[];
            updatedAt: string;
        };
        TmtMockServicePage: {
            content: components["schemas"]["TmtMockService"][];
            page: number;
            size: number;
            totalElements: number;
            totalPages: number;
        };
        TmtMockServicePageInput: {
            content: components["schemas"]["TmtMockServiceInput"][];
            page: number;
            size: number;
            totalElements: number;
            totalPages: number;
        };
        TmtUserGroup: {
            createdAt: string;
            createdBy: number | null;
            description: string;
            id: string;
            memberIds: number[];
            name: string;
            updatedAt: string;
        };
        TmtUserGroupInput: {
            createdAt: string;
            createdBy: number | null;
            description: string;
            id: string;
            memberIds: number[];
            name: string;
            updatedAt: string;
        };
        TmtUserGroupPage: {
            content: components["schemas"]["TmtUserGroup"][];
            page: number;
            size: number;
            totalElements: number;
            totalPages: number;
        };
        TmtUserGroupPageInput: {
            content: components["schemas"]["TmtUserGroupInput"][];
            page: number;
            size: number;
            totalElements: number;
            totalPages: number;
        };
        TokenPair: {
            /** @description Absolute expiry of the access token, server local time, no zone */
            expiresIn: string;
            /** @description Opaque refresh token; single use */
            refreshToken: string;
            /** @description Signed JWT access token */
            token: string;
        };
        TokenPairInput: {
            /** @description Absolute expiry of the access token, server local time, no zone */
            expiresIn: string;
            /** @description Opaque refresh token; single use */
            refreshToken: string;
            /** @description Signed JWT access token */
            token: string;
        };
        UiNode: {
            bounds: {
                height: number;
                width: number;
                x: number;
                y: number;
            };
            children: components["schemas"]["UiNode"][];
            id?: string;
            name: string;
            role: string;
            tag?: string;
            text?: string;
        };
        UiNodeInput: {
            bounds: {
                height: number;
                width: number;
                x: number;
                y: number;
            };
            children: components["schemas"]["UiNodeInput"][];
            id?: string;
            name: string;
            role: string;
            tag?: string;
            text?: string;
        };
        User: {
            activatedAt: string | null;
            companyId: number;
            createdAt: string;
            email: string;
            hasProfileImage: boolean;
            id: number;
            isAdmin: boolean;
            lastSignInAt: string | null;
            name: string;
            phone: string | null;
            roleIds: number[];
            roles: {
                id: number;
                name: string;
            }[];
            /** @enum {string} */
            status: "passive" | "active" | "deactivated";
            title: string | null;
            username: string;
        };
        UserInput: {
            activatedAt: string | null;
            companyId: number;
            createdAt: string;
            email: string;
            hasProfileImage: boolean;
            id: number;
            isAdmin: boolean;
            lastSignInAt: string | null;
            name: string;
            phone: string | null;
            roleIds: number[];
            roles: {
                id: number;
                name: string;
            }[];
            /** @enum {string} */
            status: "passive" | "active" | "deactivated";
            title: string | null;
            username: string;
        };
        UserPage: {
            content: components["schemas"]["User"][];
            page: number;
            size: number;
            totalElements: number;
            totalPages: number;
        };
        UserPageInput: {
            content: components["schemas"]["UserInput"][];
            page: number;
            size: number;
            totalElements: number;
            totalPages: number;
        };
        UserSignInSessionPage: {
            content: components["schemas"]["SignInSession"][];
            page: number;
            size: number;
            totalElements: number;
            totalPages: number;
        };
        UserSignInSessionPageInput: {
            content: components["schemas"]["SignInSessionInput"][];
            page: number;
            size: number;
            totalElements: number;
            totalPages: number;
        };
        V1ApiKey: {
            createdAt: string;
            createdBy: number;
            id: string;
            /** @description Updated at most once a minute */
            lastUsedAt: string | null;
            name: string;
            /** @description Made from a password sign-in while its company requires single sign-on: refused until an administrator approves it */
            needsApproval: boolean;
            /** @description The first characters of the key, to recognise it */
            prefix: string;
            /** @description Requests per rate-limit window (RATE_LIMIT_WINDOW, a minute by default) this credential may make, counted apart from its user's own; null: the deployment's default for credentials (RATE_LIMIT_PER_CREDENTIAL). Set by holders of API_KEY_MANAGE */
            rateLimit: number | null;
            revokedAt: string | null;
            scopes: ("read" | "write" | "delete" | "admin" | "devices" | "webhooks")[];
            /**
             * @description How its creator was signed in when they made it
             * @enum {string}
             */
            signIn: "password" | "sso";
            workspaceId: number;
        };
        V1ApiKeyInput: {
            createdAt: string;
            createdBy: number;
            id: string;
            /** @description Updated at most once a minute */
            lastUsedAt: string | null;
            name: string;
            /** @description Made from a password sign-in while its company requires single sign-on: refused until an administrator approves it */
            needsApproval: boolean;
            /** @description The first characters of the key, to recognise it */
            prefix: string;
            /** @description Requests per rate-limit window (RATE_LIMIT_WINDOW, a minute by default) this credential may make, counted apart from its user's own; null: the deployment's default for credentials (RATE_LIMIT_PER_CREDENTIAL). Set by holders of API_KEY_MANAGE */
            rateLimit: number | null;
            revokedAt: string | null;
            scopes: ("read" | "write" | "delete" | "admin" | "devices" | "webhooks")[];
            /**
             * @description How its creator was signed in when they made it
             * @enum {string}
             */
            signIn: "password" | "sso";
            workspaceId: number;
        };
        V1Error: {
            error: {
                /** @description Stable, machine-readable error code */
                code: string;
                details?: {
                    message: string;
                    path: string;
                }[];
                message: string;
            };
            /** @constant */
            success: false;
        };
        V1ErrorInput: {
            error: {
                /** @description Stable, machine-readable error code */
                code: string;
                details?: {
                    message: string;
                    path: string;
                }[];
                message: string;
            };
            /** @constant */
            success: false;
        };
        V1JunitImport: {
            /** @description Testcases recorded on a test case this import created */
            created: number;
            /** @description Testcases recorded on a test case the project already had */
            matched: number;
            results: {
                classname: string;
                /** @description The device session that ran the test, named by a df.session property or a replay link in system-out, when it is one of the company's (else null) */
                deviceSessionId: string | null;
                durationMs: number | null;
                name: string;
                /**
                 * @description The result recorded in the session (an error is recorded as failed)
                 * @enum {string}
                 */
                recordedStatus: "passed" | "failed" | "blocked" | "skipped" | "retest";
                /**
                 * @description The testcase's JUnit outcome
                 * @enum {string}
                 */
                status: "passed" | "failed" | "error" | "skipped";
                /** @enum {string} */
                testCase: "matched" | "created";
                testCaseId: string;
                /** @description The test's name: the title of the test case it was recorded on */
                title: string;
            }[];
            /**
             * @description The status of the session after the import: completed with close=true
             * @enum {string}
             */
            sessionStatus: "planned" | "in_progress" | "completed";
            /** @description Testcases recorded as skipped */
            skipped: number;
            testSessionId: string;
        };
        V1JunitImportInput: {
            /** @description Testcases recorded on a test case this import created */
            created: number;
            /** @description Testcases recorded on a test case the project already had */
            matched: number;
            results: {
                classname: string;
                /** @description The device session that ran the test, named by a df.session property or a replay link in system-out, when it is one of the company's (else null) */
                deviceSessionId: string | null;
                durationMs: number | null;
                name: string;
                /**
                 * @description The result recorded in the session (an error is recorded as failed)
                 * @enum {string}
                 */
                recordedStatus: "passed" | "failed" | "blocked" | "skipped" | "retest";
                /**
                 * @description The testcase's JUnit outcome
                 * @enum {string}
                 */
                status: "passed" | "failed" | "error" | "skipped";
                /** @enum {string} */
                testCase: "matched" | "created";
                testCaseId: string;
                /** @description The test's name: the title of the test case it was recorded on */
                title: string;
            }[];
            /**
             * @description The status of the session after the import: completed with close=true
             * @enum {string}
             */
            sessionStatus: "planned" | "in_progress" | "completed";
            /** @description Testcases recorded as skipped */
            skipped: number;
            testSessionId: string;
        };
        V1Project: {
            createdAt: string;
            description: string;
            id: string;
            key: string;
            name: string;
            updatedAt: string;
        };
        V1ProjectInput: {
            createdAt: string;
            description: string;
            id: string;
            key: string;
            name: string;
            updatedAt: string;
        };
        V1TestCase: {
            createdAt: string;
            description: string;
            id: string;
            /** @enum {string} */
            priority: "low" | "medium" | "high" | "critical";
            projectId: string;
            /** @enum {string} */
            status: "draft" | "ready" | "deprecated";
            steps: {
                action: string;
                expected: string;
            }[];
            title: string;
            updatedAt: string;
        };
        V1TestCaseInput: {
            createdAt: string;
            description: string;
            id: string;
            /** @enum {string} */
            priority: "low" | "medium" | "high" | "critical";
            projectId: string;
            /** @enum {string} */
            status: "draft" | "ready" | "deprecated";
            steps: {
                action: string;
                expected: string;
            }[];
            title: string;
            updatedAt: string;
        };
        V1TestResult: {
            /** @description The device session's video, when it has one the reader may see */
            attachments: components["schemas"]["V1TestResultAttachment"][];
            /** @description The device session that ran the test (its console page: /sessions/{id}), when its report, its test run or its poster named one of the company */
            deviceSessionId: string | null;
            durationMs: number | null;
            notes: string | null;
            recordedAt: string;
            recordedBy: {
                engineId?: string;
                userId?: number;
            };
            /** @enum {string} */
            status: "passed" | "failed" | "blocked" | "skipped" | "retest";
            testCaseId: string;
            /** @description The test's name as an imported report gave it; null for a result recorded on its own */
            title: string | null;
        };
        V1TestResultAttachment: {
            /** @constant */
            contentType: "video/mp4";
            deviceSessionId: string;
            durationMs: number;
            expiresAt: string;
            /**
             * @description The video of the device session that ran the test (the session's latest recording)
             * @constant
             */
            kind: "device-session-video";
            /** @description session-<id>.mp4 */
            name: string;
            /** @description Bytes */
            size: number;
            /** @description A signed link to the session's stored video, valid for an hour, answering Range requests (the same link as GET /df/api/sessions/{id}/video/link) */
            url: string;
        };
        V1TestResultAttachmentInput: {
            /** @constant */
            contentType: "video/mp4";
            deviceSessionId: string;
            durationMs: number;
            expiresAt: string;
            /**
             * @description The video of the device session that ran the test (the session's latest recording)
             * @constant
             */
            kind: "device-session-video";
            /** @description session-<id>.mp4 */
            name: string;
            /** @description Bytes */
            size: number;
            /** @description A signed link to the session's stored video, valid for an hour, answering Range requests (the same link as GET /df/api/sessions/{id}/video/link) */
            url: string;
        };
        V1TestResultInput: {
            /** @description The device session's video, when it has one the reader may see */
            attachments: components["schemas"]["V1TestResultAttachmentInput"][];
            /** @description The device session that ran the test (its console page: /sessions/{id}), when its report, its test run or its poster named one of the company */
            deviceSessionId: string | null;
            durationMs: number | null;
            notes: string | null;
            recordedAt: string;
            recordedBy: {
                engineId?: string;
                userId?: number;
            };
            /** @enum {string} */
            status: "passed" | "failed" | "blocked" | "skipped" | "retest";
            testCaseId: string;
            /** @description The test's name as an imported report gave it; null for a result recorded on its own */
            title: string | null;
        };
        V1TestSession: {
            completedAt: string | null;
            createdAt: string;
            id: string;
            name: string;
            projectId: string;
            /** @enum {string} */
            status: "planned" | "in_progress" | "completed";
            testCases: string[];
            updatedAt: string;
        };
        V1TestSessionDetail: {
            completedAt: string | null;
            createdAt: string;
            id: string;
            name: string;
            projectId: string;
            /** @description The current (newest) result of each case that has one */
            results: components["schemas"]["V1TestResult"][];
            /** @enum {string} */
            status: "planned" | "in_progress" | "completed";
            testCases: string[];
            updatedAt: string;
        };
        V1TestSessionDetailInput: {
            completedAt: string | null;
            createdAt: string;
            id: string;
            name: string;
            projectId: string;
            /** @description The current (newest) result of each case that has one */
            results: components["schemas"]["V1TestResultInput"][];
            /** @enum {string} */
            status: "planned" | "in_progress" | "completed";
            testCases: string[];
            updatedAt: string;
        };
        V1TestSessionInput: {
            completedAt: string | null;
            createdAt: string;
            id: string;
            name: string;
            projectId: string;
            /** @enum {string} */
            status: "planned" | "in_progress" | "completed";
            testCases: string[];
            updatedAt: string;
        };
        V1User: {
            activatedAt: string | null;
            createdAt: string;
            email: string;
            id: number;
            isAdmin: boolean;
            lastSignInAt: string | null;
            name: string;
            phone: string | null;
            /** @description Names of the company roles the user holds */
            roles: string[];
            /** @enum {string} */
            status: "passive" | "active" | "deactivated";
            title: string | null;
            username: string;
        };
        V1UserInput: {
            activatedAt: string | null;
            createdAt: string;
            email: string;
            id: number;
            isAdmin: boolean;
            lastSignInAt: string | null;
            name: string;
            phone: string | null;
            /** @description Names of the company roles the user holds */
            roles: string[];
            /** @enum {string} */
            status: "passive" | "active" | "deactivated";
            title: string | null;
            username: string;
        };
        WebDriverCommand: {
            /** @description The timeline entry */
            activityId: string;
            /** @description What it asked: selector, URL, ...; typed text only as its length */
            args: {
                [key: string]: unknown;
            } | null;
            /** @description W3C command name (findElement, elementClick, ...), else "METHOD /path" */
            command: string;
            durationMs: number;
            /** @description The element the command acted on */
            element: string | null;
            error?: string;
            message?: string;
            method: string;
            /** @description Position in the log, from 1 */
            n: number;
            /** @enum {string} */
            outcome: "success" | "error";
            /** @description Path after /session/{id}, element ids as {elementId} */
            path: string;
            /** @description Found element ids, title, URL, states; never page text or typed values */
            result?: unknown;
            startedAt: string;
            status: number;
        };
        WebDriverCommandInput: {
            /** @description The timeline entry */
            activityId: string;
            /** @description What it asked: selector, URL, ...; typed text only as its length */
            args: {
                [key: string]: unknown;
            } | null;
            /** @description W3C command name (findElement, elementClick, ...), else "METHOD /path" */
            command: string;
            durationMs: number;
            /** @description The element the command acted on */
            element: string | null;
            error?: string;
            message?: string;
            method: string;
            /** @description Position in the log, from 1 */
            n: number;
            /** @enum {string} */
            outcome: "success" | "error";
            /** @description Path after /session/{id}, element ids as {elementId} */
            path: string;
            /** @description Found element ids, title, URL, states; never page text or typed values */
            result?: unknown;
            startedAt: string;
            status: number;
        };
        WebDriverCommandLog: {
            commands: components["schemas"]["WebDriverCommand"][];
            deviceId: string;
            failed: number;
            sessionId: string;
            status: string;
            total: number;
        };
        WebDriverCommandLogInput: {
            commands: components["schemas"]["WebDriverCommandInput"][];
            deviceId: string;
            failed: number;
            sessionId: string;
            status: string;
            total: number;
        };
        Webhook: {
            createdAt: string;
            /** @description Why the platform disabled it (its deliveries kept failing) */
            disabledReason?: string;
            enabled: boolean;
            events: ("session.ended" | "reservation.starting" | "reservation.ended" | "reservation.maintenance_conflict" | "accessibility.export.ready" | "test_session.finished" | "test_run.finished" | "healthcheck.down" | "healthcheck.recovered" | "host.lost" | "device.health_changed" | "device.quarantined" | "device.recovered")[];
            id: number;
            /** @description After a rotation: until when the secret it replaced signs too (each attempt carries both signatures until then) */
            previousSecretExpiresAt?: string;
            /** @description The signing secret (`whsec_...`): only in the answer that created the webhook or rotated its secret */
            secret?: string;
            /**
             * @description Its signing secret was sealed under a key this installation no longer has: every delivery fails until the secret is rotated
             * @constant
             */
            secretMustBeRotated?: true;
            url: string;
        };
        WebhookDelivery: {
            attempts: {
                at: string;
                durationMs: number;
                error?: string;
                /** @description The request this attempt made; absent for attempts logged before requests were kept */
                request?: {
                    /** @description The body sent: the exact bytes signed */
                    body: string;
                    /** @description The headers sent: content-type, user-agent and the `webhook-*` headers (the signature, never the secret) */
                    headers: {
                        [key: string]: string;
                    };
                };
                /** @description The start of the endpoint's answer (at most 1 KiB) */
                response?: string;
                /** @description The HTTP status answered; null when none came (refused, timed out) */
                status: number | null;
            }[];
            createdAt: string;
            /**
             * @description The event it tells of, or `webhook.ping` for a ping
             * @enum {string}
             */
            event: "session.ended" | "reservation.starting" | "reservation.ended" | "reservation.maintenance_conflict" | "accessibility.export.ready" | "test_session.finished" | "test_run.finished" | "healthcheck.down" | "healthcheck.recovered" | "host.lost" | "device.health_changed" | "device.quarantined" | "device.recovered" | "webhook.ping";
            /** @description Also the `webhook-id` header of every attempt */
            id: string;
            nextAttemptAt: string | null;
            /** @enum {string} */
            state: "pending" | "delivered" | "failed";
        };
        WebhookDeliveryInput: {
            attempts: {
                at: string;
                durationMs: number;
                error?: string;
                /** @description The request this attempt made; absent for attempts logged before requests were kept */
                request?: {
                    /** @description The body sent: the exact bytes signed */
                    body: string;
                    /** @description The headers sent: content-type, user-agent and the `webhook-*` headers (the signature, never the secret) */
                    headers: {
                        [key: string]: string;
                    };
                };
                /** @description The start of the endpoint's answer (at most 1 KiB) */
                response?: string;
                /** @description The HTTP status answered; null when none came (refused, timed out) */
                status: number | null;
            }[];
            createdAt: string;
            /**
             * @description The event it tells of, or `webhook.ping` for a ping
             * @enum {string}
             */
            event: "session.ended" | "reservation.starting" | "reservation.ended" | "reservation.maintenance_conflict" | "accessibility.export.ready" | "test_session.finished" | "test_run.finished" | "healthcheck.down" | "healthcheck.recovered" | "host.lost" | "device.health_changed" | "device.quarantined" | "device.recovered" | "webhook.ping";
            /** @description Also the `webhook-id` header of every attempt */
            id: string;
            nextAttemptAt: string | null;
            /** @enum {string} */
            state: "pending" | "delivered" | "failed";
        };
        WebhookInput: {
            createdAt: string;
            /** @description Why the platform disabled it (its deliveries kept failing) */
            disabledReason?: string;
            enabled: boolean;
            events: ("session.ended" | "reservation.starting" | "reservation.ended" | "reservation.maintenance_conflict" | "accessibility.export.ready" | "test_session.finished" | "test_run.finished" | "healthcheck.down" | "healthcheck.recovered" | "host.lost" | "device.health_changed" | "device.quarantined" | "device.recovered")[];
            id: number;
            /** @description After a rotation: until when the secret it replaced signs too (each attempt carries both signatures until then) */
            previousSecretExpiresAt?: string;
            /** @description The signing secret (`whsec_...`): only in the answer that created the webhook or rotated its secret */
            secret?: string;
            /**
             * @description Its signing secret was sealed under a key this installation no longer has: every delivery fails until the secret is rotated
             * @constant
             */
            secretMustBeRotated?: true;
            url: string;
        };
        Workspace: {
            archived: boolean;
            createdAt: string;
            description: string;
            id: number;
            modules: string[];
            name: string;
            settings: {
                [key: string]: unknown;
            };
        };
        WorkspaceAccess: {
            teams: {
                id: number;
                name: string;
            }[];
            users: {
                email: string;
                id: number;
                name: string;
            }[];
        };
        WorkspaceAccessInput: {
            teams: {
                id: number;
                name: string;
            }[];
            users: {
                email: string;
                id: number;
                name: string;
            }[];
        };
        WorkspaceInput: {
            archived: boolean;
            createdAt: string;
            description: string;
            id: number;
            modules: string[];
            name: string;
            settings: {
                [key: string]: unknown;
            };
        };
        WorkspaceMember: {
            email: string;
            name: string;
            roles: {
                id: number;
                name: string;
            }[];
            status: string;
            userId: number;
            /** @description How the member may enter: administrator, a direct grant, a team grant */
            via: ("admin" | "user" | "team")[];
        };
        WorkspaceMemberInput: {
            email: string;
            name: string;
            roles: {
                id: number;
                name: string;
            }[];
            status: string;
            userId: number;
            /** @description How the member may enter: administrator, a direct grant, a team grant */
            via: ("admin" | "user" | "team")[];
        };
        WorkspaceModules: {
            modules: string[];
        };
        WorkspaceModulesInput: {
            modules: string[];
        };
    };
    responses: never;
    parameters: {
        /** @description Names this request (1–255 visible ASCII characters): a repeat with the same body within 24 h is answered the first answer again (`Idempotent-Replayed: true`); see docs/api-conventions.md, "Idempotency" */
        IdempotencyKey: string;
    };
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export type operations = Record<string, never>;
