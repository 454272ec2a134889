import { ConfigError, InvalidInputError, NotFoundError, SvcError, isSvcError } from '../../../src/lib/errors';

describe('errors', () => {
  it('InvalidInputError is a bad_request SvcError and an Error', () => {
    const e = new InvalidInputError('bad thing');
    expect(e).toBeInstanceOf(Error);
    expect(e).toBeInstanceOf(SvcError);
    expect(e).toBeInstanceOf(InvalidInputError);
    expect(e.code).toBe('bad_request');
    expect(e.message).toBe('bad thing');
    expect(e.name).toBe('InvalidInputError');
    expect(isSvcError(e)).toBe(true);
  });

  it('NotFoundError carries not_found', () => {
    const e = new NotFoundError('no such asset');
    expect(e.code).toBe('not_found');
    expect(e).not.toBeInstanceOf(InvalidInputError);
    expect(e.name).toBe('NotFoundError');
  });

  it('ConfigError names the variable and maps to internal', () => {
    const e = new ConfigError('SVC_HRP', 'invalid');
    expect(e.variable).toBe('SVC_HRP');
    expect(e.message).toBe('SVC_HRP: invalid');
    expect(e.code).toBe('internal');
    expect(e.name).toBe('ConfigError');
  });

  it('isSvcError is false for plain errors and non-errors', () => {
    expect(isSvcError(new Error('x'))).toBe(false);
    expect(isSvcError({ code: 'bad_request' })).toBe(false);
    expect(isSvcError(undefined)).toBe(false);
  });

  it('a thrown error keeps its class through try/catch', () => {
    let caught: unknown;
    try {
      throw new NotFoundError('x');
    } catch (e) {
      caught = e;
    }
    expect(caught instanceof NotFoundError).toBe(true);
  });
});
