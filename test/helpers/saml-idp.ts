import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { createRequire } from 'node:module';

/**
 * The part of `samlify` this identity provider uses. Loaded by `require` with these types rather than
 * its own: its declarations pull the DOM library into the whole project's type-check (through
 * `@xmldom/xmldom`), which changes Node's `fetch` and `Blob` types everywhere.
 */
interface SamlifyEntity {
  entityMeta: { getEntityID(): string };
}
interface SamlifyIdp extends SamlifyEntity {
  createLoginResponse(
    sp: SamlifyEntity,
    request: { extract: { request: { id: string } } },
    binding: 'post',
    user: { email: string },
    options: { customTagReplacement: (template: string) => { id: string; context: string } },
  ): Promise<{ context: string }>;
}
interface Samlify {
  IdentityProvider(settings: Record<string, unknown>): SamlifyIdp;
  ServiceProvider(settings: Record<string, unknown>): SamlifyEntity;
}
const samlify = createRequire(import.meta.url)('samlify') as Samlify;

/**
 * How the next answer is spoiled: a signed assertion changed afterwards, another audience, already expired,
 * its assertion for another service's Recipient, the answer for another Destination; `unasked` leaves
 * InResponseTo out of the assertion (as an identity provider's unsolicited answer has it).
 */
export type SamlTamper = 'none' | 'signature' | 'audience' | 'expired' | 'recipient' | 'destination' | 'unasked';

/** The authentication request the service provider sent, as the identity provider read it. */
export interface ReceivedRequest {
  id: string;
  issuer: string;
  acsUrl: string;
  relayState: string;
}

export interface TestSamlIdp {
  /** The single sign-on URL (HTTP-Redirect binding): the provider's `entryPoint`. */
  entryPoint: string;
  /** PEM of the certificate that signs the assertions: the provider's `idpCertificate`. */
  certificate: string;
  /** Where the service provider is: its entity id and assertion consumer service (known once the provider has its id). */
  trust(sp: { entityId: string; acsUrl: string }): void;
  /** Who signs in at the next request, with their attributes. */
  signInAs(person: { email: string; name?: string; groups?: string[] }): void;
  tamper(mode: SamlTamper): void;
  /** The last request received. */
  lastRequest(): ReceivedRequest | null;
  stop(): Promise<void>;
}

/** An RSA key and a self-signed certificate made by `openssl` for the identity provider's signatures. */
function signingKeyPair(): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'qa-saml-idp-'));
  try {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=Test SAML IdP', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], { stdio: 'ignore' });
    return { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const escapeXml = (s: string) => s.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);
const attribute = (name: string, values: string[]) =>
  `<saml:Attribute Name="${escapeXml(name)}" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:basic">${values
    .map((v) => `<saml:AttributeValue xsi:type="xs:string">${escapeXml(v)}</saml:AttributeValue>`)
    .join('')}</saml:Attribute>`;

/** The request of an HTTP-Redirect binding: base64 of raw DEFLATE of the XML. */
function readRequest(url: URL): ReceivedRequest {
  const xml = inflateRawSync(Buffer.from(url.searchParams.get('SAMLRequest') ?? '', 'base64')).toString('utf8');
  const attr = (name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(xml)?.[1] ?? '';
  const issuer = /<(?:saml2?:)?Issuer[^>]*>([^<]*)</.exec(xml)?.[1] ?? '';
  return { id: attr('ID'), issuer, acsUrl: attr('AssertionConsumerServiceURL'), relayState: url.searchParams.get('RelayState') ?? '' };
}

/**
 * A SAML 2.0 identity provider built with `samlify` on a free loopback port. Its single sign-on URL
 * reads the AuthnRequest (HTTP-Redirect), signs an assertion for whoever `signInAs` names (RSA-SHA256,
 * the assertion signed, in response to the request) and answers the browser an auto-submitting form
 * that posts it to the service provider's assertion consumer service (HTTP-POST), as real ones do.
 */
export async function startSamlIdp(): Promise<TestSamlIdp> {
  const { key, cert } = signingKeyPair();
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const entryPoint = `${base}/sso`;
  const idp = samlify.IdentityProvider({
    entityID: `${base}/metadata`,
    privateKey: key,
    signingCert: cert,
    isAssertionEncrypted: false,
    nameIDFormat: ['urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress'],
    singleSignOnService: [{ Binding: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect', Location: entryPoint }],
  });
  let sp: SamlifyEntity | null = null;
  let person: { email: string; name?: string; groups?: string[] } | null = null;
  let tamper: SamlTamper = 'none';
  let last: ReceivedRequest | null = null;

  const respond = async (request: ReceivedRequest): Promise<string> => {
    if (!sp || !person) throw new Error('the test IdP trusts no service provider or has nobody to sign in');
    const who = person;
    const now = new Date();
    const later = new Date(now.getTime() + 5 * 60_000);
    const expired = new Date(now.getTime() - 10 * 60_000);
    const spEntityId = sp.entityMeta.getEntityID();
    const { context } = await idp.createLoginResponse(sp, { extract: { request: { id: request.id } } }, 'post', { email: who.email }, {
      customTagReplacement: (template: string) => {
        const id = `_${crypto.randomUUID()}`;
        const values: Record<string, string> = {
          ID: id,
          AssertionID: `_${crypto.randomUUID()}`,
          Destination: tamper === 'destination' ? 'https://somebody-else.test/acs' : request.acsUrl,
          Audience: tamper === 'audience' ? 'https://somebody-else.test/sp' : spEntityId,
          SubjectRecipient: tamper === 'recipient' ? 'https://somebody-else.test/acs' : request.acsUrl,
          Issuer: idp.entityMeta.getEntityID(),
          IssueInstant: (tamper === 'expired' ? new Date(expired.getTime() - 5 * 60_000) : now).toISOString(),
          StatusCode: 'urn:oasis:names:tc:SAML:2.0:status:Success',
          ConditionsNotBefore: (tamper === 'expired' ? new Date(expired.getTime() - 5 * 60_000) : now).toISOString(),
          ConditionsNotOnOrAfter: (tamper === 'expired' ? expired : later).toISOString(),
          SubjectConfirmationDataNotOnOrAfter: (tamper === 'expired' ? expired : later).toISOString(),
          NameIDFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
          NameID: who.email,
          InResponseTo: request.id,
        };
        const shaped = tamper === 'unasked' ? template.replace(/(<saml:SubjectConfirmationData\b[^>]*?)\s+InResponseTo="\{InResponseTo\}"/, '$1') : template;
        let xml = shaped.replace(/\{(\w+)\}/g, (m, tag: string) => (tag in values ? escapeXml(values[tag]!) : m));
        xml = xml.replace(
          '{AuthnStatement}',
          `<saml:AuthnStatement AuthnInstant="${now.toISOString()}" SessionIndex="${id}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>`,
        );
        const attributes = [attribute('email', [who.email]), ...(who.name ? [attribute('displayName', [who.name])] : []), ...(who.groups?.length ? [attribute('groups', who.groups)] : [])];
        xml = xml.replace('{AttributeStatement}', `<saml:AttributeStatement>${attributes.join('')}</saml:AttributeStatement>`);
        return { id, context: xml };
      },
    });
    if (tamper !== 'signature') return context;
    // The assertion's signature stays; the address it vouches for is changed afterwards.
    const xml = Buffer.from(context, 'base64').toString('utf8');
    return Buffer.from(xml.split(escapeXml(who.email)).join('intruder@corp.test'), 'utf8').toString('base64');
  };

  server.on('request', (req, res) => {
    const url = new URL(req.url ?? '/', base);
    if (url.pathname !== '/sso' || req.method !== 'GET') {
      res.writeHead(404).end();
      return;
    }
    const request = readRequest(url);
    last = request;
    respond(request).then(
      (samlResponse) => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(
          `<!doctype html><html lang="en"><head><title>Signing in</title></head><body onload="document.forms[0].submit()"><form method="post" action="${escapeXml(request.acsUrl)}">` +
            `<input type="hidden" name="SAMLResponse" value="${escapeXml(samlResponse)}"><input type="hidden" name="RelayState" value="${escapeXml(request.relayState)}">` +
            `<noscript><button type="submit">Continue</button></noscript></form></body></html>`,
        );
      },
      (err: unknown) => res.writeHead(500, { 'content-type': 'text/plain' }).end(String(err)),
    );
  });

  return {
    entryPoint,
    certificate: cert,
    trust({ entityId, acsUrl }) {
      sp = samlify.ServiceProvider({
        entityID: entityId,
        wantAssertionsSigned: true,
        assertionConsumerService: [{ Binding: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST', Location: acsUrl }],
      });
    },
    signInAs(p) {
      person = p;
    },
    tamper(mode) {
      tamper = mode;
    },
    lastRequest: () => last,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
