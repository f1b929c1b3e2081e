const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a path or query value is a uuid; lookups answer 404 for one that is not, without asking the database. */
export const isUuid = (value: string) => UUID.test(value);
