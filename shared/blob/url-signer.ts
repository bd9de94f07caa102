import type { SigningKeys } from '../auth/index.js';

/** Signs and checks the platform-served blob URLs. */
export interface UrlSigner {
  sign(data: string): Promise<{ kid: string; signature: string }>;
  verify(data: string, kid: string, signature: string): Promise<boolean>;
}

const algorithm = (alg: SigningKeys['alg']) => (alg === 'EdDSA' ? { name: 'Ed25519' } : { name: 'ECDSA', hash: 'SHA-256' });

/**
 * Signs with the platform's token signing key (EdDSA or ES256, by `kid`): every replica already holds
 * the keys, so any replica verifies a URL another one signed, and a key rotation (`JWT_EXTRA_JWKS`)
 * keeps the URLs signed before it valid until they expire. No extra secret to distribute.
 */
export function signingKeyUrlSigner(keys: SigningKeys): UrlSigner {
  const encoder = new TextEncoder();
  return {
    async sign(data) {
      const signature = await crypto.subtle.sign(algorithm(keys.alg), keys.privateKey, encoder.encode(data));
      return { kid: keys.kid, signature: Buffer.from(signature).toString('base64url') };
    },
    async verify(data, kid, signature) {
      const entry = keys.verificationKeys.get(kid);
      if (!entry || !/^[A-Za-z0-9_-]{1,200}$/.test(signature)) return false;
      try {
        return await crypto.subtle.verify(algorithm(entry.alg), entry.key, Buffer.from(signature, 'base64url'), encoder.encode(data));
      } catch {
        return false;
      }
    },
  };
}
