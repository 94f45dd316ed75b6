import { badRequest, RestliError } from './errors';

describe('RestliError', () => {
  it('takes no stack for a client error, which is neither answered nor logged', () => {
    const err = badRequest('Unknown entity type');
    expect(err.stack).toBe('Error: Unknown entity type');
    expect(err.toBody()).toEqual({ exceptionClass: 'com.linkedin.restli.server.RestLiServiceException', message: 'Unknown entity type', status: 400 });
  });

  it('keeps the stack of a server error, for the log', () => {
    const err = new RestliError(500, 'store failed');
    expect(err.stack).toMatch(/^Error: store failed\n\s+at /);
  });

  it('leaves the stack limit as it was, for every other error', () => {
    const limit = Error.stackTraceLimit;
    badRequest('bad');
    expect(Error.stackTraceLimit).toBe(limit);
    expect(new Error('other').stack).toMatch(/\n\s+at /);
  });
});
