import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A fresh token for one gateway start: 32 random bytes, base64url. */
export function newGatewayToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * Whether an `Authorization` header carries exactly `Bearer <token>`. Both sides are hashed first,
 * so the comparison takes the same time whatever the header's length or content.
 */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  const given = createHash('sha256').update(m ? m[1] : '').digest();
  const expected = createHash('sha256').update(token).digest();
  return timingSafeEqual(given, expected) && !!m;
}
