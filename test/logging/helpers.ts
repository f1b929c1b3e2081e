/** A well-formed id that names nothing. */
export const UNKNOWN = '00000000-0000-4000-8000-000000000000';

let counter = 0;
/** A name no other test of the file uses. */
export const unique = (prefix: string) => `${prefix}-${++counter}`;
