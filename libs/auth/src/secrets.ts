/** Comparing secrets without leaking, through timing, how much of a guess was right. */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

const COMPARISON_KEY = randomBytes(32);

/** Equal-length digests first, so neither the content nor the length of `expected` shows in the timing. */
export function constantTimeEqual(given: string, expected: string): boolean {
  const a = createHmac('sha256', COMPARISON_KEY).update(given).digest();
  const b = createHmac('sha256', COMPARISON_KEY).update(expected).digest();
  return timingSafeEqual(a, b);
}

export function randomSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}
