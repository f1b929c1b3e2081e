import { describe, expect, it } from 'vitest';
import { issueInWords, labelFromKey, sentence } from './field-messages';

describe('a validation issue in words', () => {
  it('says a pattern an email must match as an example address', () => {
    expect(issueInWords('must match pattern "^[^\\s@]+@[^\\s@]+$"', 'email', 'Email')).toBe(
      'Enter an email address such as name@example.com.',
    );
  });

  it('says an empty required text as "cannot be empty"', () => {
    expect(issueInWords('must NOT have fewer than 1 characters', 'name', 'Name')).toBe(
      'Name cannot be empty.',
    );
  });

  it('names the length a longer text needs', () => {
    expect(issueInWords('must NOT have fewer than 8 characters', 'password', 'Password')).toBe(
      'Password needs at least 8 characters.',
    );
  });

  it('names the bounds of a number', () => {
    expect(issueInWords('must be <= 43200', 'renotifyMinutes', 'Remind every')).toBe(
      'Remind every must be at most 43200.',
    );
  });

  it('says a byte limit in binary units', () => {
    expect(issueInWords('must be <= 5242880', 'maxBodyBytes', 'Largest body')).toBe(
      'Largest body must be at most 5 MiB.',
    );
  });

  it('says an id that is not one as a choice to make from the list', () => {
    expect(issueInWords('must match format "uuid"', 'filters.nodeId', 'Node')).toBe(
      'Node must be an id (a UUID such as 123e4567-e89b-12d3-a456-426614174000).',
    );
  });

  it('names the entry of a list field', () => {
    expect(issueInWords('must match pattern "^x$"', 'scopes', 'Scopes', 3)).toBe(
      'Scopes, entry 3, is not in the expected form.',
    );
  });

  it('keeps a phrase the gateway wrote itself, after the label', () => {
    expect(
      issueInWords('does not apply to cert.expiring: it takes certificateId', 'filters.nodeId', 'Node'),
    ).toBe('Node does not apply to cert.expiring: it takes certificateId.');
  });

  it('never shows the validator phrase of a known rule', () => {
    const phrases = [
      'must NOT have more than 255 characters',
      'must NOT have fewer than 1 items',
      'must be integer',
      'must be one of: a, b',
      'must NOT have additional properties',
      'must match format "uri"',
      'is required',
    ];
    for (const phrase of phrases) expect(issueInWords(phrase, 'field', 'Field')).not.toContain('must NOT');
    expect(issueInWords('must match format "uri"', 'url', 'URL')).toBe(
      'URL must be a full address such as https://example.com.',
    );
  });
});

describe('a label from a field key', () => {
  it('reads an id field as the record it points at', () => {
    expect(labelFromKey('filters.destinationId')).toBe('Destination');
  });

  it('spells acronyms in capitals', () => {
    expect(labelFromKey('privateKeyPem')).toBe('Private key PEM');
  });

  it('reads a list of ids as the records', () => {
    expect(labelFromKey('channelIds')).toBe('Channels');
  });
});

describe('a phrase made a sentence', () => {
  it('starts with a capital and ends with a full stop once', () => {
    expect([sentence('name taken'), sentence('Done.')]).toEqual(['Name taken.', 'Done.']);
  });
});
