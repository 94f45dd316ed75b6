import { cookieValue, credentialsOf } from './credentials';

describe('credentials', () => {
  it('reads bearer tokens and the system client in raw and base64 Basic form', () => {
    expect(credentialsOf('Bearer abc.def.ghi')).toEqual({ kind: 'bearer', token: 'abc.def.ghi' });
    expect(credentialsOf('bearer t')).toEqual({ kind: 'bearer', token: 't' });
    expect(credentialsOf('Basic __datahub_system:s3cr:et')).toEqual({ kind: 'basic', clientId: '__datahub_system', secret: 's3cr:et' });
    expect(credentialsOf(`Basic ${Buffer.from('id:secret').toString('base64')}`)).toEqual({ kind: 'basic', clientId: 'id', secret: 'secret' });
    expect(credentialsOf(undefined)).toBeUndefined();
    expect(credentialsOf('Digest x')).toBe('malformed');
    expect(credentialsOf('Bearer')).toBe('malformed');
  });

  it('reads one cookie of a Cookie header', () => {
    expect(cookieValue('a=1; cairn_session=x%2Ey; b=2', 'cairn_session')).toBe('x.y');
    expect(cookieValue('a=1', 'cairn_session')).toBeUndefined();
  });
});
