import { describe, expect, it } from 'vitest';
import { destinationChange, destinationValues, newDestination } from './destination-body';

describe('the destination form body', () => {
  it('sends only the settings of the chosen kind', () => {
    const values = {
      ...destinationValues(),
      name: 'soc',
      url: 'https://siem.test/in',
      secret: 's',
      host: 'x',
    };
    expect(newDestination(values)).toEqual({
      name: 'soc',
      kind: 'webhook',
      enabled: true,
      url: 'https://siem.test/in',
      secret: 's',
    });
  });

  it('leaves out an empty secret, so the stored one is kept', () => {
    const values = { ...destinationValues(), kind: 'syslog' as const, name: 'rsyslog', host: 'h', port: 514 };
    expect(destinationChange(values)).toEqual({
      name: 'rsyslog',
      enabled: true,
      host: 'h',
      port: 514,
      tls: false,
    });
  });
});
