/** What the container-host routes declare: the scope each needs and their OpenAPI tag. */
export const view = { scope: 'containerhost:view' } as const;
export const manage = { scope: 'containerhost:manage' } as const;
export const tags = ['containerhost'];

/** Lets routes whose body is optional be called without one (validated as `{}`). */
export const emptyBodyAsObject = async (request: { body: unknown }) => {
  if (request.body === undefined || request.body === null) request.body = {};
};
