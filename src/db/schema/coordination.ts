import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Which gateway process currently runs a background job, until when. */
export const jobLeases = pgTable('job_leases', {
  name: text('name').primaryKey(),
  holder: text('holder').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});
