/**
 * What dns-01 needs from a DNS host: publish and withdraw one TXT record. Implementations: RFC 2136
 * (`rfc2136.ts`). Without a provider the order runs in manual mode: the operator creates the records.
 */
export interface DnsProviderClient {
  addTxt(name: string, value: string): Promise<void>;
  removeTxt(name: string, value: string): Promise<void>;
}
