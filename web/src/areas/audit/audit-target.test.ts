import { describe, expect, it } from 'vitest';
import { auditTarget } from './audit-target';

const ID = '0b5c6f3e-1d2a-4c8b-9e7f-112233445566';
const event = (fields: Partial<Parameters<typeof auditTarget>[0]>) => ({
  targetType: 'database',
  targetId: ID,
  action: 'databases.database.created',
  metadata: { name: 'orders-cache' },
  ...fields,
});

describe('the target of an audit event', () => {
  it('is the record by the name the event recorded, linked to its page', () => {
    expect(auditTarget(event({}))).toEqual({ name: 'orders-cache', href: `/databases/${ID}` });
  });

  it('names a user by email and links to the users found by it', () => {
    expect(
      auditTarget(event({ targetType: 'user', metadata: { email: 'ada@example.com', name: 'Ada' } })),
    ).toEqual({
      name: 'ada@example.com',
      href: '/users?q=ada%40example.com',
    });
  });

  it('is not linked once the event deleted it', () => {
    expect(auditTarget(event({ action: 'databases.database.deleted' }))).toEqual({ name: 'orders-cache' });
  });

  it('falls back to the kind and the start of the id when nothing names it', () => {
    expect(auditTarget(event({ targetType: 'route', metadata: {} }))).toEqual({ name: 'route 0b5c6f3e' });
  });

  it('is nothing for an event about no record', () => {
    expect(auditTarget(event({ targetType: null, targetId: null }))).toBeUndefined();
  });
});
