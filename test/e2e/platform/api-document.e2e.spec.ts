import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, startTestServer, type TestServer } from '#test/helpers/server.js';

// The OpenAPI document names, per operation, the credentials and the workspace header the access
// control wants there, so Swagger UI's "Try it out" sends them.
let server: TestServer;
let doc: { paths: Record<string, Record<string, { security?: Record<string, string[]>[] }>>; components: { securitySchemes: Record<string, { name?: string }> } };

beforeAll(async () => {
  server = await startTestServer({ AGENT_ENABLED: 'false' });
  doc = (await http(server.url, 'GET', '/openapi.json')).body;
});

afterAll(async () => {
  await server?.stop();
});

const securityOf = (path: string, method: string) => {
  const operation = doc.paths[path]?.[method];
  if (!operation) throw new Error(`${method.toUpperCase()} ${path} is not in the document`);
  return operation.security;
};

describe('the OpenAPI document', () => {
  it('declares the bearer token, the workspace header and the module header credentials', () => {
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['apiKeyHeader', 'bearerAuth', 'engineToken', 'workspaceHeader']);
    expect(doc.components.securitySchemes.workspaceHeader!.name).toBe('X-Workspace-Id');
  });

  it('asks for no credential on public operations', () => {
    expect(securityOf('/api/v1/auth/login', 'post')).toEqual([]);
    expect(securityOf('/healthcheck/api/v1/heartbeat/{token}', 'post')).toEqual([]);
  });

  it('sends the workspace header with the token on module operations, and X-Api-Key where it counts', () => {
    expect(securityOf('/df/api/devices', 'get')).toEqual([{ bearerAuth: [], workspaceHeader: [] }, { apiKeyHeader: [] }]);
    expect(securityOf('/df/api/keys', 'get')).toEqual([{ bearerAuth: [], workspaceHeader: [] }]);
    expect(securityOf('/healthcheck/api/v1/checks', 'get')).toEqual([{ bearerAuth: [], workspaceHeader: [] }, { apiKeyHeader: [] }]);
    expect(securityOf('/healthcheck/api/v1/api-keys', 'get')).toEqual([{ bearerAuth: [], workspaceHeader: [] }]);
  });

  it('lets organization operations use the token’s own workspace, and names the engine token on engine paths', () => {
    expect(securityOf('/api/v1/users/me', 'get')).toEqual([{ bearerAuth: [], workspaceHeader: [] }, { bearerAuth: [] }]);
    const runs = Object.keys(doc.paths).find((p) => p.startsWith('/autorunner/api/v1/runs'))!;
    const method = Object.keys(doc.paths[runs]!)[0]!;
    expect(securityOf(runs, method)).toContainEqual({ engineToken: [] });
  });
});

describe('the references of the OpenAPI document', () => {
  it('all resolve: every `$ref` names a schema the document defines', () => {
    const dangling = new Set<string>();
    const resolves = (ref: string) => {
      if (!ref.startsWith('#/')) return false;
      let node: unknown = doc;
      for (const part of ref.slice(2).split('/')) {
        const key = part.replace(/~1/g, '/').replace(/~0/g, '~');
        if (node === null || typeof node !== 'object' || !(key in node)) return false;
        node = (node as Record<string, unknown>)[key];
      }
      return node !== undefined;
    };
    const walk = (node: unknown, where: string) => {
      if (Array.isArray(node)) node.forEach((n, i) => walk(n, `${where}/${i}`));
      else if (node !== null && typeof node === 'object') {
        for (const [key, value] of Object.entries(node)) {
          if (key === '$ref' && typeof value === 'string' && !resolves(value)) dangling.add(`${value} (at ${where})`);
          else walk(value, `${where}/${key}`);
        }
      }
    };
    walk(doc, '#');
    expect([...dangling]).toEqual([]);
  });
});

describe('binary answers in the OpenAPI document', () => {
  it('declares the image media types of a session screenshot, not JSON', () => {
    const ok = (doc.paths['/df/api/sessions/{sessionId}/screenshot']?.get as { responses?: Record<string, { content?: Record<string, unknown> }> } | undefined)?.responses?.['200'];
    expect(Object.keys(ok?.content ?? {}).sort()).toEqual(['image/jpeg', 'image/png']);
  });

  it('declares the 302 of a file download with its Location header, and no body', () => {
    const responses = (doc.paths['/df/api/files/{fileId}/download']?.get as { responses?: Record<string, { description?: string; content?: unknown; headers?: Record<string, { schema?: { type?: string; format?: string } }> }> } | undefined)?.responses;
    expect(Object.keys(responses ?? {}).filter((status) => status.startsWith('2') || status.startsWith('3'))).toEqual(['302']);
    const found = responses!['302']!;
    expect(found.description).toMatch(/Location/);
    expect(found.headers?.location?.schema).toEqual({ type: 'string', format: 'uri' });
    expect(found.headers?.['cache-control']?.schema).toMatchObject({ type: 'string', const: 'no-store' });
    expect(found.content).toBeUndefined();
  });

  it('documents the viewer WebSocket as a GET answered 101, pointing at its message list', () => {
    const operation = doc.paths['/df/ws/sessions/{sessionId}']?.get as { description?: string; responses?: Record<string, { description?: string; content?: unknown }>; parameters?: { name: string; in: string }[] } | undefined;
    expect(operation).toBeDefined();
    expect(Object.keys(operation!.responses ?? {}).filter((status) => status.startsWith('1') || status.startsWith('2'))).toEqual(['101']);
    expect(operation!.responses!['101']!.description).toMatch(/Switching Protocols/);
    expect(operation!.responses!['101']!.content).toBeUndefined();
    expect(operation!.description).toContain('"The viewer socket"');
    expect(operation!.parameters?.map((p) => `${p.in}:${p.name}`).sort()).toEqual(['path:sessionId', 'query:access_token', 'query:workspaceId']);
  });
});
