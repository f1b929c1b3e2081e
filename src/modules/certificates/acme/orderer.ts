import type * as acme from 'acme-client';
import { eq } from 'drizzle-orm';
import type { Deps } from '../../../core/deps.js';
import { AppError } from '../../../core/errors.js';
import { acmeOrders } from '../../../db/schema/index.js';
import { type ParsedMaterial, parseMaterial } from '../material.js';
import { readChain } from '../pem.js';
import type { AcmeAccounts } from './accounts.js';
import type { ChallengeStore } from './challenges.js';
import { dnsRecordName } from './challenges.js';
import { certificateRequest, describeProblem, newPrivateKeyPem } from './client.js';
import type { DnsProviderClient } from './dns-provider.js';

/** Binds the sealed key of an order's CSR to its column. */
const ORDER_KEY_CONTEXT = 'acme_orders.private_key';

export type AcmeOrderRow = typeof acmeOrders.$inferSelect;

/** What one step of an order came to. */
export type StepOutcome =
  | { kind: 'waiting' }
  | { kind: 'awaiting-operator' }
  | { kind: 'issued'; material: ParsedMaterial }
  | { kind: 'failed'; reason: string };

const failed = (reason: string): StepOutcome => ({ kind: 'failed', reason });

/** An error as one line for `lastError`: the CA's problem, a validation detail, or the message. */
export function errorText(error: unknown): string {
  if (error instanceof AppError) {
    const details = error.details as { explanation?: string; 0?: { path: string[]; message: string } };
    if (details?.explanation) return details.explanation;
    if (details?.[0]) return `${details[0].path.join('.')} ${details[0].message}`;
  }
  if (!(error instanceof Error)) return String(error);
  // fetch says only "fetch failed"; the cause says what failed (refused, TLS, egress rule).
  return error.cause instanceof Error ? `${error.message}: ${error.cause.message}` : error.message;
}

/**
 * Carries one ACME order (RFC 8555) as far as it goes without waiting: creates it, publishes the
 * challenge answers and tells the CA to validate, finalizes with a CSR, and downloads the chain,
 * which passes the same checks as an upload. Every step starts from what the CA says the order's
 * state is, so a step interrupted by a crash is simply taken again by the next worker.
 */
export class AcmeOrderer {
  constructor(
    private readonly deps: Pick<Deps, 'db' | 'secrets'> & {
      accounts: AcmeAccounts;
      challenges: ChallengeStore;
    },
  ) {}

  async advance(order: AcmeOrderRow, provider: DnsProviderClient | undefined): Promise<StepOutcome> {
    const client = await this.deps.accounts.client(order.accountId);
    let current: acme.Order;
    let keyPem: string;
    if (order.orderUrl && order.privateKeySealed) {
      current = await client.getOrder({ url: order.orderUrl } as acme.Order);
      keyPem = this.deps.secrets.open(order.privateKeySealed, ORDER_KEY_CONTEXT);
    } else {
      keyPem = newPrivateKeyPem();
      current = await client.createOrder({
        identifiers: order.domains.map((value) => ({ type: 'dns', value })),
      });
      await this.deps.db
        .update(acmeOrders)
        .set({
          orderUrl: current.url,
          privateKeySealed: this.deps.secrets.seal(keyPem, ORDER_KEY_CONTEXT),
          confirmedAt: null,
          updatedAt: new Date(),
        })
        .where(eq(acmeOrders.certificateId, order.certificateId));
    }

    switch (current.status) {
      case 'pending':
        return this.answerChallenges(client, order, current, provider);
      case 'ready': {
        const finalized = await client.finalizeOrder(
          current,
          await certificateRequest(order.domains, keyPem),
        );
        return finalized.status === 'valid' ? this.download(client, finalized, keyPem) : { kind: 'waiting' };
      }
      case 'valid':
        return this.download(client, current, keyPem);
      case 'invalid':
        return failed(await this.invalidReason(client, current));
      default:
        return { kind: 'waiting' };
    }
  }

  /** Publishes each pending challenge's answer and asks the CA to validate it (manual dns-01: once confirmed). */
  private async answerChallenges(
    client: acme.Client,
    order: AcmeOrderRow,
    current: acme.Order,
    provider: DnsProviderClient | undefined,
  ): Promise<StepOutcome> {
    let awaitingOperator = false;
    for (const authorization of await client.getAuthorizations(current)) {
      const domain = `${authorization.wildcard ? '*.' : ''}${authorization.identifier.value}`;
      if (authorization.status === 'valid') continue;
      if (authorization.status !== 'pending') return failed(authorizationReason(authorization));
      const challenge = authorization.challenges.find((candidate) => candidate.type === order.challenge);
      if (!challenge) return failed(`the CA offers no ${order.challenge} challenge for ${domain}`);
      if (challenge.status !== 'pending') continue;
      const keyAuthorization = await client.getChallengeKeyAuthorization(challenge);
      await this.deps.challenges.save({
        certificateId: order.certificateId,
        type: order.challenge,
        domain,
        token: challenge.token,
        keyAuthorization,
        challengeUrl: challenge.url,
      });
      if (order.challenge === 'dns-01') {
        if (provider) await provider.addTxt(dnsRecordName(domain), keyAuthorization);
        else if (!order.confirmedAt) {
          awaitingOperator = true;
          continue;
        }
      }
      await client.completeChallenge(challenge);
    }
    return awaitingOperator ? { kind: 'awaiting-operator' } : { kind: 'waiting' };
  }

  private async download(client: acme.Client, current: acme.Order, keyPem: string): Promise<StepOutcome> {
    const [leaf, ...chain] = readChain(await client.getCertificate(current));
    if (!leaf) return failed('the CA answered an empty certificate chain');
    try {
      const material = parseMaterial({
        certificatePem: leaf.toString(),
        chainPem: chain.map((certificate) => certificate.toString()).join(''),
        privateKeyPem: keyPem,
      });
      return { kind: 'issued', material };
    } catch (error) {
      return failed(`the issued certificate did not pass the certificate checks: ${errorText(error)}`);
    }
  }

  /** The CA's reason an order is invalid: the failed challenge's problem, else the order's own. */
  private async invalidReason(client: acme.Client, current: acme.Order): Promise<string> {
    const authorizations = await client.getAuthorizations(current).catch(() => []);
    const invalid = authorizations.find((authorization) => authorization.status === 'invalid');
    if (invalid) return authorizationReason(invalid);
    return describeProblem(current.error) ?? 'the CA marked the order invalid';
  }
}

function authorizationReason(authorization: acme.Authorization): string {
  const problem = authorization.challenges.map((challenge) => describeProblem(challenge.error)).find(Boolean);
  return `${authorization.identifier.value}: ${problem ?? `authorization ${authorization.status}`}`;
}
