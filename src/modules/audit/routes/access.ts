/** The scopes of the audit routes. */
export const view = { scope: 'audit:view' } as const;
export const manage = { scope: 'audit:manage' } as const;
