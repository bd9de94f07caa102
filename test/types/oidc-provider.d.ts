/** The part of oidc-provider (a real OpenID provider, the identity tests' counterpart) the tests use. */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  interface KoaContext {
    path: string;
    body: unknown;
    req: IncomingMessage;
    res: ServerResponse;
    redirect(url: string): void;
    oidc: { client?: { clientId: string }; session?: { accountId?: string } };
  }
  interface Account {
    accountId: string;
    claims(): Promise<Record<string, unknown>>;
  }
  class Grant {
    constructor(options: { clientId: string; accountId: string });
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  }
  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown> & {
      interactions?: { url(ctx: KoaContext, interaction: { uid: string }): string };
      findAccount?(ctx: KoaContext, sub: string): Promise<Account | undefined>;
      loadExistingGrant?(ctx: KoaContext): Promise<Grant | undefined>;
    });
    Grant: typeof Grant;
    use(middleware: (ctx: KoaContext, next: () => Promise<void>) => Promise<void>): void;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    interactionResult(req: IncomingMessage, res: ServerResponse, result: Record<string, unknown>, options?: { mergeWithLastSubmission?: boolean }): Promise<string>;
  }
}
