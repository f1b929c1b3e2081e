import { timestamp } from 'drizzle-orm/pg-core';

// Column shapes that many tables share; each call builds a fresh column for one table.

/** When the row was inserted; the database sets it. */
export const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/** When the row last changed; services set it on update. */
export const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();
