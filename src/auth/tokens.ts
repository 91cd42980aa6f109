// Team and admin tokens: 192 random bits, shown once, stored only as a SHA-256 hash (the
// tokens are random, so a slow password hash would add nothing), compared in constant time.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export function newToken(kind: 'team' | 'admin'): string {
  return `ms${kind === 'admin' ? 'a' : 't'}_${randomBytes(24).toString('base64url')}`;
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && x.length > 0 && timingSafeEqual(x, y);
}
