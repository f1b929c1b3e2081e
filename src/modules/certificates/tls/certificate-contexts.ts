import tls from 'node:tls';
import { eq, isNotNull } from 'drizzle-orm';
import type { CertificateChoices } from '../../../core/certificate-choices.js';
import type { Deps } from '../../../core/deps.js';
import { certificateNameCovers } from '../../../core/hostnames.js';
import type { SecretBox } from '../../../core/secret-box.js';
import type { Db } from '../../../db/client.js';
import { sslCertificates } from '../../../db/schema/index.js';
import { KEY_CONTEXT } from '../certificates.js';
import { TLS_SETTINGS } from './tls-settings.js';

interface Candidate {
  id: string;
  notAfter: number;
}

interface Index {
  /** Host names a module chose a certificate for (a pages custom domain) to that certificate. */
  chosen: Map<string, string>;
  /** Host names (lowercase, and `*.domain` for wildcards) to the certificates that carry them. */
  byName: Map<string, Candidate[]>;
  defaultId: string | undefined;
}

/**
 * Picks the stored certificate for a TLS handshake by SNI name: the one chosen for that name (a
 * verified pages domain's `certificateId`), else an exact name, then the wildcard one level up,
 * then the configured default. Among several matches, the one that expires last wins. The index
 * and the secure contexts are built on demand and dropped by `invalidate()`, which the certificate
 * and choice change feeds call, so a replaced, renewed or newly chosen certificate is served from
 * the next handshake on.
 */
export class CertificateContexts {
  private index: Promise<Index> | undefined;
  private readonly contexts = new Map<string, Promise<tls.SecureContext>>();
  private generation = 0;
  private readonly db: Db;
  private readonly secrets: SecretBox;
  private readonly choices: CertificateChoices;
  private readonly defaultCertificate: string | undefined;

  constructor(
    deps: Pick<Deps, 'db' | 'secrets' | 'certificateChoices'> & {
      /** Name or id of the certificate served when nothing else matches. */
      defaultCertificate: string | undefined;
    },
  ) {
    this.db = deps.db;
    this.secrets = deps.secrets;
    this.choices = deps.certificateChoices;
    this.defaultCertificate = deps.defaultCertificate;
  }

  invalidate(): void {
    this.generation += 1;
    this.index = undefined;
    this.contexts.clear();
  }

  /** The id of the certificate to serve for this SNI name (undefined: none, the handshake fails). */
  async select(servername: string | undefined): Promise<string | undefined> {
    const index = await this.currentIndex();
    const name = (servername ?? '').toLowerCase().replace(/\.$/, '');
    const chosen = index.chosen.get(name);
    if (chosen) return chosen;
    const dot = name.indexOf('.');
    const candidates =
      (name && index.byName.get(name)) || (dot > 0 ? index.byName.get(`*${name.slice(dot)}`) : undefined);
    return candidates?.[0]?.id ?? index.defaultId;
  }

  /** The secure context for an SNI name, for `SNICallback`. */
  async contextFor(servername: string | undefined): Promise<tls.SecureContext | undefined> {
    const id = await this.select(servername);
    if (!id) return undefined;
    let context = this.contexts.get(id);
    if (!context) {
      context = this.build(id);
      this.contexts.set(id, context);
      context.catch(() => this.contexts.delete(id));
    }
    return context;
  }

  private currentIndex(): Promise<Index> {
    if (!this.index) {
      const generation = this.generation;
      const loading = this.load();
      this.index = loading;
      loading.catch(() => {
        if (this.generation === generation) this.index = undefined;
      });
    }
    return this.index;
  }

  private async load(): Promise<Index> {
    const [rows, choices] = await Promise.all([this.certificates(), this.choices.chosen()]);
    const byName = new Map<string, Candidate[]>();
    for (const row of rows) {
      const candidate = { id: row.id, notAfter: row.notAfter?.getTime() ?? 0 };
      for (const san of new Set((row.sans ?? []).map((name) => name.toLowerCase()))) {
        byName.set(san, [...(byName.get(san) ?? []), candidate]);
      }
    }
    for (const list of byName.values()) list.sort((a, b) => b.notAfter - a.notAfter);
    // A choice counts while its certificate has material that names the host (a replaced one may not).
    const sansOf = new Map(rows.map((row) => [row.id, row.sans ?? []]));
    const chosen = new Map<string, string>();
    for (const [hostname, id] of choices) {
      if (sansOf.get(id)?.some((san) => certificateNameCovers(san, hostname))) chosen.set(hostname, id);
    }
    const wanted = this.defaultCertificate;
    const fallback = rows.find((row) => row.id === wanted) ?? rows.find((row) => row.name === wanted);
    return { chosen, byName, defaultId: fallback?.id };
  }

  /** The stored certificates that have material (uploaded, or issued at least once). */
  private certificates() {
    return this.db
      .select({
        id: sslCertificates.id,
        name: sslCertificates.name,
        sans: sslCertificates.sans,
        notAfter: sslCertificates.notAfter,
      })
      .from(sslCertificates)
      .where(isNotNull(sslCertificates.certificatePem));
  }

  /** Certificate and key of the configured default, for clients that send no SNI name. */
  async defaultMaterial(): Promise<tls.SecureContextOptions | undefined> {
    const { defaultId } = await this.currentIndex();
    return defaultId ? this.material(defaultId) : undefined;
  }

  private async build(id: string): Promise<tls.SecureContext> {
    return tls.createSecureContext(await this.material(id));
  }

  private async material(id: string): Promise<tls.SecureContextOptions> {
    const [row] = await this.db
      .select({
        certificatePem: sslCertificates.certificatePem,
        chainPem: sslCertificates.chainPem,
        privateKeySealed: sslCertificates.privateKeySealed,
      })
      .from(sslCertificates)
      .where(eq(sslCertificates.id, id));
    if (!row?.certificatePem || !row.privateKeySealed) throw new Error(`certificate ${id} has no material`);
    return {
      ...TLS_SETTINGS,
      cert: row.certificatePem + row.chainPem,
      key: this.secrets.open(row.privateKeySealed, KEY_CONTEXT),
    };
  }
}
