import { describe, expect, it } from 'vitest';
import { ApiError, describeError, formErrors, SEE_FIELDS } from './errors';

const validation = (details: unknown) =>
  new ApiError(400, { code: 'VALIDATION_ERROR', message: 'Request validation failed', details });

describe('the error envelope', () => {
  it('gives the code, the message and the reason', () => {
    const error = new ApiError(403, {
      code: 'FORBIDDEN',
      message: 'Insufficient permissions',
      details: { requiredScope: 'admin:users' },
    });
    expect([error.code, error.message, error.requiredScope]).toEqual([
      'FORBIDDEN',
      'Insufficient permissions',
      'admin:users',
    ]);
  });

  it('survives a body that is not the envelope', () => {
    const error = new ApiError(502, '<html>bad gateway</html>');
    expect([error.code, error.message, error.issues]).toEqual(['UNKNOWN', 'The gateway answered 502', []]);
  });

  it('is described by its explanation alone, without the generic message', () => {
    const error = new ApiError(422, {
      code: 'UNPROCESSABLE_ENTITY',
      message: 'Request could not be processed',
      details: { reason: 'SETUP_CODE_USED', explanation: 'this setup link was used already' },
    });
    expect(describeError(error)).toBe('This setup link was used already.');
  });

  it('is described by its reason in words when there is no explanation', () => {
    const error = new ApiError(409, {
      code: 'CONFLICT',
      message: 'Resource already exists',
      details: { reason: 'USER_EMAIL_TAKEN' },
    });
    expect(describeError(error)).toBe('Resource already exists: user email taken');
  });
});

describe('a refused form', () => {
  it('shows each issue next to the field its path names', () => {
    const error = validation([
      { path: ['email'], message: 'must match pattern' },
      { path: ['password'], message: 'must NOT have fewer than 8 characters' },
    ]);
    expect(formErrors(error, ['email', 'name', 'password']).fields).toEqual({
      email: 'Enter an email address such as name@example.com.',
      password: 'Password needs at least 8 characters.',
    });
  });

  it('points the banner at the fields when every issue is shown next to one', () => {
    const error = validation([{ path: ['email'], message: 'must match pattern' }]);
    expect(formErrors(error, ['email']).banner).toBe(SEE_FIELDS);
  });

  it('shows an issue inside a list field on that field, naming the item', () => {
    const error = validation([{ path: ['scopes', 2], message: 'must be * or <area>:<permission>' }]);
    expect(formErrors(error, ['name', 'scopes']).fields).toEqual({
      scopes: 'Scopes, entry 3, must be * or <area>:<permission>.',
    });
  });

  it('puts issues of no field of the form in the banner', () => {
    const error = validation([
      { path: [], message: 'body is not valid JSON' },
      { path: ['limit'], message: 'must be <= 100' },
    ]);
    expect(formErrors(error, ['name'])).toEqual({
      fields: {},
      banner: 'Body is not valid JSON. Limit must be at most 100.',
    });
  });

  it('shows any other refusal in the banner only', () => {
    const error = new ApiError(409, {
      code: 'CONFLICT',
      message: 'Resource already exists',
      details: { reason: 'GROUP_NAME_TAKEN' },
    });
    expect(formErrors(error, ['name'])).toEqual({
      fields: {},
      banner: 'Resource already exists: group name taken',
    });
  });

  it('shows a refusal whose reason the form maps to a field next to that field, with its explanation', () => {
    const error = new ApiError(422, {
      code: 'UNPROCESSABLE_ENTITY',
      message: 'Request could not be processed',
      details: { reason: 'KEY_MISMATCH', explanation: 'the private key does not belong to the certificate' },
    });
    expect(formErrors(error, ['certificatePem', 'privateKeyPem'], { KEY_MISMATCH: 'privateKeyPem' })).toEqual(
      {
        fields: { privateKeyPem: 'The private key does not belong to the certificate.' },
        banner: SEE_FIELDS,
      },
    );
  });

  it('names a mapped reason in words when it comes without an explanation', () => {
    const error = new ApiError(409, {
      code: 'CONFLICT',
      message: 'Resource already exists',
      details: { reason: 'SLUG_TAKEN' },
    });
    expect(formErrors(error, ['name', 'slug'], { SLUG_TAKEN: 'slug' }).fields).toEqual({
      slug: 'Slug taken.',
    });
  });

  it('keeps a mapped reason in the banner when the form lacks that field', () => {
    const error = new ApiError(409, {
      code: 'CONFLICT',
      message: 'Resource already exists',
      details: { reason: 'SLUG_TAKEN' },
    });
    expect(formErrors(error, ['name'], { SLUG_TAKEN: 'slug' })).toEqual({
      fields: {},
      banner: 'Resource already exists: slug taken',
    });
  });

  it('shows a failure that is not a refusal in the banner', () => {
    expect(formErrors(new Error('The email or password is not correct.'), ['email']).banner).toBe(
      'The email or password is not correct.',
    );
  });

  it('shows an issue of a nested field next to that field, under its label', () => {
    const error = validation([{ path: ['filters', 'destinationId'], message: 'must match format "uuid"' }]);
    expect(
      formErrors(
        error,
        ['name', 'filters', 'filters.destinationId'],
        {},
        { 'filters.destinationId': 'SIEM destination' },
      ).fields,
    ).toEqual({
      'filters.destinationId':
        'SIEM destination must be an id (a UUID such as 123e4567-e89b-12d3-a456-426614174000).',
    });
  });

  it('says a validation refusal outside a form in words', () => {
    const error = validation([{ path: ['name'], message: 'must NOT have fewer than 1 characters' }]);
    expect(describeError(error)).toBe('Name cannot be empty.');
  });
});
