import { type Column, ilike, like, type SQL } from 'drizzle-orm';

/** The user's text is matched literally: LIKE's own wildcards and escape are escaped. */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, '\\$&');

/** Case-insensitive "contains" for a `?q=` filter. */
export const containsText = (column: Column | SQL, text: string) => ilike(column, `%${escapeLike(text)}%`);

/** Case-sensitive "starts with", for prefix filters such as `action=pages.*`. */
export const startsWithText = (column: Column | SQL, text: string) => like(column, `${escapeLike(text)}%`);
