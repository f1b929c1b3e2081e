import { index, integer, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns.js';
import { users } from './identity.js';
import { inferenceConnections } from './inference.js';

/**
 * A consumer key of the inference data plane (`igk_…`): only its SHA-256 is stored, the secret is
 * answered once. It opens `/inference` only, never `/api`.
 */
export const inferenceKeys = pgTable('inference_keys', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull().unique(),
  keyHash: text('key_hash').notNull().unique(),
  /** The first characters of the secret, so an operator can tell keys apart. */
  keyPrefix: text('key_prefix').notNull(),
  /** Model names or globs (`*`) the key may use; null: every model. */
  models: text('models').array(),
  expiresAt: timestamp('expires_at', { withTimezone: true }),
  revokedAt: timestamp('revoked_at', { withTimezone: true }),
  lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** A public model name served by an ordered list of targets (inferenceRouteTargets). */
export const inferenceRoutes = pgTable('inference_routes', {
  id: uuid('id').primaryKey().defaultRandom(),
  model: text('model').notNull().unique(),
  createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** One target of a route: a connection and the model name its provider knows. */
export const inferenceRouteTargets = pgTable(
  'inference_route_targets',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    routeId: uuid('route_id')
      .notNull()
      .references(() => inferenceRoutes.id, { onDelete: 'cascade' }),
    /** The target's place in the request's list; priority orders first, this breaks ties. */
    position: integer('position').notNull(),
    connectionId: uuid('connection_id')
      .notNull()
      .references(() => inferenceConnections.id, { onDelete: 'cascade' }),
    upstreamModel: text('upstream_model').notNull(),
    priority: integer('priority').notNull().default(0),
    weight: integer('weight').notNull().default(1),
  },
  (table) => [
    unique('inference_route_targets_position_key').on(table.routeId, table.position),
    index('inference_route_targets_connection_idx').on(table.connectionId),
  ],
);
