import { constantTimeEqual, randomSecret, secretMatcher } from './secrets';

describe('secret comparison', () => {
  it('matches only the very secret, whatever the guess shares with it', () => {
    const secret = randomSecret();
    const matches = secretMatcher(secret);
    expect(matches(secret)).toBe(true);
    for (const guess of ['', secret.slice(0, -1), `${secret}x`, secret.toUpperCase() === secret ? secret.toLowerCase() : secret.toUpperCase(), ` ${secret}`]) {
      expect({ guess, matches: matches(guess) }).toEqual({ guess, matches: false });
      expect(constantTimeEqual(guess, secret)).toBe(false);
    }
    expect(constantTimeEqual(secret, secret)).toBe(true);
  });
});
