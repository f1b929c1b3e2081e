import { describe, expect, it } from 'vitest';
import { channelChanges, channelValues, newChannel, parseHeaders } from './channel-form';

describe('custom webhook headers', () => {
  it('reads one Name: value per line, skipping blank lines', () => {
    expect(parseHeaders('X-Token: abc: def\n\nX-Team:ops')).toEqual({
      headers: { 'X-Token': 'abc: def', 'X-Team': 'ops' },
    });
  });

  it('names the line that is not a header', () => {
    expect(parseHeaders('X-Token: abc\nnonsense')).toEqual({
      error: 'line 2: write each header as Name: value',
    });
  });
});

describe('the channel a form describes', () => {
  it('sends a webhook with its secret and headers', () => {
    const values = { ...channelValues(), name: 'hook', url: 'https://h.example/in', secret: 'a'.repeat(16) };
    expect(newChannel(values, { 'X-Token': 't' })).toEqual({
      name: 'hook',
      kind: 'webhook',
      enabled: true,
      url: 'https://h.example/in',
      secret: 'a'.repeat(16),
      headers: { 'X-Token': 't' },
    });
  });

  it('sends an email channel without STARTTLS when it speaks TLS from the first byte', () => {
    const values = {
      ...channelValues(),
      kind: 'email' as const,
      name: 'mail',
      smtpHost: 'smtp.example.com',
      smtpSecure: true,
      from: 'gw@example.com',
      to: ['ops@example.com'],
    };
    expect(newChannel(values, {})).toEqual({
      name: 'mail',
      kind: 'email',
      enabled: true,
      smtp: { host: 'smtp.example.com', secure: true },
      from: 'gw@example.com',
      to: ['ops@example.com'],
    });
  });

  it('keeps write-only values it was not given, and removes those it is told to', () => {
    const values = { ...channelValues(), name: 'hook', url: 'https://h.example/in', removeHeaders: true };
    expect(channelChanges(values, {})).toEqual({
      name: 'hook',
      enabled: true,
      url: 'https://h.example/in',
      headers: null,
    });
  });

  it('changes a Slack channel’s URL only when a new one was typed', () => {
    expect(channelChanges({ ...channelValues(), kind: 'slack', name: 'chat' }, {})).toEqual({
      name: 'chat',
      enabled: true,
    });
  });
});
