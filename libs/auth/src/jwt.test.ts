import { createHmac } from 'node:crypto';
import { signJwt, TokenError, verifyJwt } from './jwt';

const KEY = 'k'.repeat(32);

describe('HS256 JWTs', () => {
  it('verifies what it signs, and refuses other keys, tampering, expiry and other algorithms', () => {
    const token = signJwt({ sub: 'ann', exp: Math.floor(Date.now() / 1000) + 60 }, KEY);
    expect(verifyJwt(token, KEY).sub).toBe('ann');
    expect(() => verifyJwt(token, 'x'.repeat(32))).toThrow(TokenError);
    const [h, , s] = token.split('.');
    const forged = `${h}.${Buffer.from(JSON.stringify({ sub: 'root' })).toString('base64url')}.${s}`;
    expect(() => verifyJwt(forged, KEY)).toThrow('Invalid token signature');
    expect(() => verifyJwt(signJwt({ exp: 1 }, KEY), KEY)).toThrow('Token expired');
    const none = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${token.split('.')[1]}.`;
    expect(() => verifyJwt(none, KEY)).toThrow('Unsupported token algorithm');
    expect(() => verifyJwt('garbage', KEY)).toThrow('not a JWT');
  });

  it('signs as the reference does: header {"alg":"HS256"}, key = the UTF-8 bytes of the signing key', () => {
    const key = 'WnEdIeTG/VVCLQqGwC/BAkqyY0k+H8NEAtWGejrBI94=';
    const token = signJwt({ sub: 'datahub' }, key);
    const [h, p, s] = token.split('.');
    expect(JSON.parse(Buffer.from(h, 'base64url').toString())).toEqual({ alg: 'HS256' });
    expect(s).toBe(createHmac('sha256', Buffer.from(key, 'utf8')).update(`${h}.${p}`).digest('base64url'));
  });
});
