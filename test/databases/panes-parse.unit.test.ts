import { describe, expect, it } from 'vitest';
import { parseClientList, parseInfo } from '../../src/modules/databases/panes-parse.js';

describe('parsing INFO', () => {
  it('groups name:value lines under their lower-case section', () => {
    expect(
      parseInfo('# Server\r\nredis_version:7.0.15\r\n\r\n# Keyspace\r\ndb0:keys=2,expires=0\r\n'),
    ).toEqual({
      server: { redis_version: '7.0.15' },
      keyspace: { db0: 'keys=2,expires=0' },
    });
  });

  it('keeps a value that holds colons whole and puts lines before any section under general', () => {
    expect(parseInfo('executable:/usr/bin/redis-server\n# Stats\nx:a:b')).toEqual({
      general: { executable: '/usr/bin/redis-server' },
      stats: { x: 'a:b' },
    });
  });
});

describe('parsing CLIENT LIST', () => {
  it('answers one object per line of name=value pairs', () => {
    expect(
      parseClientList('id=3 addr=127.0.0.1:5 name= cmd=client|list\nid=4 addr=[::1]:6 name=web cmd=get\n'),
    ).toEqual([
      { id: '3', addr: '127.0.0.1:5', name: '', cmd: 'client|list' },
      { id: '4', addr: '[::1]:6', name: 'web', cmd: 'get' },
    ]);
  });
});
