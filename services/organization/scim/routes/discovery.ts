import type { FastifyInstance } from 'fastify';
import { SCIM } from '../protocol.js';

const tags = ['SCIM 2.0'];

const attribute = (name: string, type: string, extra: Record<string, unknown> = {}) => ({
  name,
  type,
  multiValued: false,
  required: false,
  caseExact: false,
  mutability: 'readWrite',
  returned: 'default',
  uniqueness: 'none',
  ...extra,
});

/** What this service provider supports, for directories that read it before provisioning (RFC 7643 §5–7). */
export async function scimDiscoveryRoutes(app: FastifyInstance): Promise<void> {
  app.get('/ServiceProviderConfig', { schema: { tags, summary: 'What the SCIM service supports' } }, async (request) => ({
    schemas: [SCIM.serviceProviderConfig],
    documentationUri: `${request.protocol}://${request.host}/docs`,
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: 200 },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: false },
    authenticationSchemes: [{ type: 'oauthbearertoken', name: 'Bearer token', description: 'A scim_ token from POST /api/v1/scim-tokens', primary: true }],
  }));

  app.get('/ResourceTypes', { schema: { tags, summary: 'Users and Groups' } }, async () => ({
    schemas: [SCIM.list],
    totalResults: 2,
    Resources: [
      { schemas: [SCIM.resourceType], id: 'User', name: 'User', endpoint: '/Users', schema: SCIM.user },
      { schemas: [SCIM.resourceType], id: 'Group', name: 'Group', endpoint: '/Groups', schema: SCIM.group },
    ],
  }));

  app.get('/Schemas', { schema: { tags, summary: 'The attributes of Users and Groups this service keeps' } }, async () => ({
    schemas: [SCIM.list],
    totalResults: 2,
    Resources: [
      {
        schemas: [SCIM.schema],
        id: SCIM.user,
        name: 'User',
        attributes: [
          attribute('userName', 'string', { required: true, uniqueness: 'server', mutability: 'immutable' }),
          attribute('name', 'complex', { subAttributes: ['formatted', 'givenName', 'familyName'].map((n) => attribute(n, 'string')) }),
          attribute('displayName', 'string'),
          attribute('title', 'string'),
          attribute('active', 'boolean'),
          attribute('emails', 'complex', { multiValued: true, subAttributes: [attribute('value', 'string'), attribute('primary', 'boolean')] }),
          attribute('phoneNumbers', 'complex', { multiValued: true, subAttributes: [attribute('value', 'string')] }),
        ],
      },
      {
        schemas: [SCIM.schema],
        id: SCIM.group,
        name: 'Group',
        attributes: [
          attribute('displayName', 'string', { required: true, uniqueness: 'server' }),
          attribute('members', 'complex', { multiValued: true, subAttributes: [attribute('value', 'string', { mutability: 'immutable' })] }),
        ],
      },
    ],
  }));
}
