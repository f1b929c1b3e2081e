/** The scopes of the logging routes. */
export const view = { scope: 'logging:view' } as const;
export const manage = { scope: 'logging:manage' } as const;
