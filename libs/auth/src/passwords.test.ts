import { hashPassword, verifyPassword } from './passwords';

describe('passwords', () => {
  it('are salted scrypt hashes that verify only the right password', async () => {
    const a = await hashPassword('correct horse');
    const b = await hashPassword('correct horse');
    expect(a.hashedPassword).toMatch(/^scrypt\$N=32768,r=8,p=1\$/);
    expect(a.salt).not.toBe(b.salt);
    expect(a.hashedPassword).not.toBe(b.hashedPassword);
    expect(await verifyPassword('correct horse', a)).toBe(true);
    expect(await verifyPassword('correct horsE', a)).toBe(false);
    expect(await verifyPassword('correct horse', { salt: a.salt, hashedPassword: 'sha256:abc' })).toBe(false);
  });
});
