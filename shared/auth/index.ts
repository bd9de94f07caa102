export { loadSigningKeys, SIGNING_ALGS } from './keys.js';
export type { LoadSigningKeysOptions, PublicJwk, SigningAlg, SigningKeys, VerificationKey } from './keys.js';
export { ACCESS_TOKEN_TYPE, createTokenService, formatLocalIso } from './tokens.js';
export type {
  AccessTokenClaims,
  AccessTokenInput,
  IssuedAccessToken,
  TokenService,
  TokenServiceOptions,
} from './tokens.js';
export { dummyVerify, hashPassword, needsRehash, verifyPassword } from './passwords.js';
export { hashToken, randomToken } from './opaque.js';
export { loadSecretBox, SealedValueError, SecretBox, secretsKeyFilePath } from './sealed.js';
export type { SecretBoxOptions } from './sealed.js';
export * from './keys.js';
export * from './tokens.js';
