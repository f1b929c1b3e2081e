import { and, asc, count, eq, type SQL } from 'drizzle-orm';
import type { AuditActor } from '../../core/actor.js';
import { conflictOnDuplicate } from '../../core/db-errors.js';
import type { Deps } from '../../core/deps.js';
import { EgressDeniedError } from '../../core/egress-guard.js';
import { conflict, notFound, unprocessable } from '../../core/errors.js';
import { trimmedName } from '../../core/names.js';
import { fetchPage } from '../../core/pagination.js';
import { containsText } from '../../core/text-filters.js';
import { droppedSecretsNote, withDroppedSecrets } from '../../core/trust-boundary.js';
import type { DbOrTx } from '../../db/client.js';
import { notificationChannels, notificationRuleChannels, notificationRules } from '../../db/schema/index.js';
import { DeliveryError } from './adapters/outbound.js';
import type { ChannelSender } from './channel-sender.js';
import {
  applyChannelInput,
  channelHost,
  checkChannelInput,
  describeChannel,
  dropMovedSecrets,
  type StoredChannel,
  toChannelView,
} from './channel-settings.js';
import type {
  Channel,
  ChannelChange,
  ChannelCreate,
  ChannelListQuery,
  ChannelTestResult,
  ChannelUpdate,
} from './schemas.js';

type ChannelRow = typeof notificationChannels.$inferSelect;

/** Notification channels (webhook, Slack-compatible, email); their secrets are sealed and never answered. */
export class ChannelService {
  constructor(private readonly deps: Pick<Deps, 'db' | 'audit' | 'egress'> & { sender: ChannelSender }) {}

  async list(query: ChannelListQuery) {
    const conditions: SQL[] = [];
    if (query.kind) conditions.push(eq(notificationChannels.kind, query.kind));
    if (query.q) conditions.push(containsText(notificationChannels.name, query.q));
    const where = and(...conditions);
    return fetchPage(
      query,
      ({ limit, offset }) =>
        this.deps.db
          .select()
          .from(notificationChannels)
          .where(where)
          .orderBy(asc(notificationChannels.name))
          .limit(limit)
          .offset(offset),
      this.deps.db.select({ value: count() }).from(notificationChannels).where(where),
      (row) => this.view(row),
    );
  }

  async get(id: string, db: DbOrTx = this.deps.db): Promise<Channel> {
    return this.view(await this.findRow(db, id));
  }

  async create(actor: AuditActor, input: ChannelCreate): Promise<Channel> {
    const name = trimmedName(input.name);
    checkChannelInput(input.kind, input, true);
    const stored = applyChannelInput(input.kind, { settings: {}, secrets: {} }, input);
    await this.checkEgress(input.kind, stored);
    return this.deps.db.transaction(async (tx) => {
      const [row] = (await conflictOnDuplicate(
        tx
          .insert(notificationChannels)
          .values({
            name,
            kind: input.kind,
            enabled: input.enabled ?? true,
            settings: stored.settings,
            secretsSealed: this.deps.sender.sealSecrets(stored.secrets),
          })
          .returning(),
        'CHANNEL_NAME_TAKEN',
        { name },
      )) as [ChannelRow];
      await this.deps.audit.record(tx, actor, {
        action: 'notifications.channel.created',
        targetType: 'notification_channel',
        targetId: row.id,
        metadata: { name, kind: row.kind, enabled: row.enabled, ...describeChannel(stored) },
      });
      return toChannelView(row, stored.secrets);
    });
  }

  async update(actor: AuditActor, id: string, input: ChannelUpdate): Promise<ChannelChange> {
    const name = input.name === undefined ? undefined : trimmedName(input.name);
    const storedOf = (row: ChannelRow): StoredChannel => ({
      settings: row.settings,
      secrets: this.deps.sender.openSecrets(row),
    });
    // Checked before the transaction: a DNS lookup must not hold the row (or PGlite) locked.
    const found = await this.findRow(this.deps.db, id);
    checkChannelInput(found.kind, input, false);
    if (input.url !== undefined || input.smtp?.host !== undefined)
      await this.checkEgress(found.kind, applyChannelInput(found.kind, storedOf(found), input));
    return this.deps.db.transaction(async (tx) => {
      const current = await this.findRow(tx, id, true);
      const before = storedOf(current);
      const { stored, dropped } = dropMovedSecrets(
        current.kind,
        before,
        applyChannelInput(current.kind, before, input),
        input,
      );
      const [row] = (await conflictOnDuplicate(
        tx
          .update(notificationChannels)
          .set({
            ...(name !== undefined ? { name } : {}),
            ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
            settings: stored.settings,
            secretsSealed: this.deps.sender.sealSecrets(stored.secrets),
            updatedAt: new Date(),
          })
          .where(eq(notificationChannels.id, id))
          .returning(),
        'CHANNEL_NAME_TAKEN',
        { name },
      )) as [ChannelRow];
      await this.deps.audit.record(tx, actor, {
        action: 'notifications.channel.updated',
        targetType: 'notification_channel',
        targetId: id,
        metadata: {
          name: row.name,
          changed: Object.keys(input).sort(),
          enabled: row.enabled,
          ...describeChannel(stored),
          ...droppedSecretsNote(dropped),
        },
      });
      return withDroppedSecrets(toChannelView(row, stored.secrets), dropped);
    });
  }

  /** Deletes a channel and its deliveries; refused (409) while rules send to it. */
  async remove(actor: AuditActor, id: string): Promise<void> {
    await this.deps.db.transaction(async (tx) => {
      // Locked first, so a rule being saved with this channel either commits before (and is seen
      // below) or finds the channel gone.
      const row = await this.findRow(tx, id, true);
      const users = await tx
        .select({ id: notificationRules.id, name: notificationRules.name })
        .from(notificationRuleChannels)
        .innerJoin(notificationRules, eq(notificationRules.id, notificationRuleChannels.ruleId))
        .where(eq(notificationRuleChannels.channelId, id))
        .orderBy(asc(notificationRules.name));
      if (users.length > 0) {
        throw conflict('CHANNEL_IN_USE', {
          rules: users,
          explanation: `rules still send to this channel: ${users.map((rule) => rule.name).join(', ')}; remove it from them first`,
        });
      }
      await tx.delete(notificationChannels).where(eq(notificationChannels.id, id));
      await this.deps.audit.record(tx, actor, {
        action: 'notifications.channel.deleted',
        targetType: 'notification_channel',
        targetId: id,
        metadata: { name: row.name, kind: row.kind },
      });
    });
  }

  /** Sends a test message now and reports what the channel did; nothing is queued. */
  async test(actor: AuditActor, id: string): Promise<ChannelTestResult> {
    const row = await this.findRow(this.deps.db, id);
    let result: ChannelTestResult & { httpStatus?: number | null };
    try {
      const sent = await this.deps.sender.sendTest(row);
      result = { ok: true, httpStatus: sent.httpStatus };
    } catch (error) {
      if (!(error instanceof DeliveryError)) throw error;
      result = { ok: false, error: error.message, httpStatus: error.httpStatus };
    }
    await this.deps.audit.recordAlone(this.deps.db, actor, {
      action: 'notifications.channel.tested',
      targetType: 'notification_channel',
      targetId: id,
      outcome: result.ok ? 'success' : 'failure',
      metadata: { name: row.name, kind: row.kind, ...result },
    });
    return result.ok ? { ok: true } : { ok: false, error: result.error! };
  }

  private view(row: ChannelRow): Channel {
    return toChannelView(row, this.deps.sender.openSecrets(row));
  }

  private async findRow(db: DbOrTx, id: string, forUpdate = false): Promise<ChannelRow> {
    const query = db.select().from(notificationChannels).where(eq(notificationChannels.id, id));
    const [row] = forUpdate ? await query.for('update') : await query;
    if (!row) throw notFound({ channelId: id });
    return row;
  }

  /** A channel whose address the egress policy refuses is refused when saved, not when an alert is due. */
  private async checkEgress(kind: ChannelRow['kind'], stored: StoredChannel): Promise<void> {
    const host = channelHost(kind, stored);
    try {
      await this.deps.egress.resolve(host);
    } catch (error) {
      if (error instanceof EgressDeniedError)
        throw unprocessable('EGRESS_DENIED', error.message, { host, rule: error.rule });
      // A name that does not resolve yet is allowed: deliveries retry and report it.
    }
  }
}
