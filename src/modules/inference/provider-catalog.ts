import { invalidField } from '../../core/errors.js';
import type { CatalogEntry } from '../../inference-catalog.js';
import type { PublicCatalogEntry } from './schemas.js';

/** The providers the gateway knows (the catalog file, loaded once), by id. */
export class ProviderCatalog {
  private readonly byId: Map<string, CatalogEntry>;

  constructor(private readonly entries: CatalogEntry[]) {
    this.byId = new Map(entries.map((entry) => [entry.id, entry]));
  }

  /** Every entry with the contract's fields only: the settings kept in the file stay here. */
  list(): PublicCatalogEntry[] {
    return this.entries.map((entry) => {
      const { apiKeyHeader: _header, extraHeaders: _extra, oauth: _oauth, ...rest } = entry;
      return rest;
    });
  }

  /** The entry of a stored provider id; undefined once the operator removed it from the file. */
  find(providerId: string): CatalogEntry | undefined {
    return this.byId.get(providerId);
  }

  /** The entry a request names; an unknown id is a 400 on that field. */
  require(providerId: string): CatalogEntry {
    const entry = this.byId.get(providerId);
    if (!entry) throw invalidField(['providerId'], `no provider ${providerId} in the catalog`);
    return entry;
  }
}
