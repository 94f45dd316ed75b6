/** Comparing secrets without leaking, through timing, how much of a guess was right. */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

const COMPARISON_KEY = randomBytes(32);

const digest = (text: string) => createHmac('sha256', COMPARISON_KEY).update(text).digest();

/** Equal-length digests first, so neither the content nor the length of `expected` shows in the timing. */
export function constantTimeEqual(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}

/** `constantTimeEqual` against one secret that does not change: its digest is taken once, not at every call. */
export function secretMatcher(expected: string): (given: string) => boolean {
  const expectedDigest = digest(expected);
  return (given) => timingSafeEqual(digest(given), expectedDigest);
}

export function randomSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}
