import type { SecretDestinationCase } from './case.js';

/**
 * The certificates area holds secrets, none of which can be sent to a changed destination:
 * - a DNS provider's TSIG key goes to its server, and no operation changes a provider (there is
 *   no PATCH or PUT of `/api/ssl-certificates/dns-providers/{id}`): to use another server, add a
 *   provider with its own key;
 * - ACME account keys and certificate keys are private keys: they sign (JWS for the CA, TLS) and
 *   are never sent anywhere; an account belongs to one directory URL for good, and
 *   `PUT /api/ssl-certificates/{id}` replaces a certificate's key with the one it is given.
 */
export const cases: SecretDestinationCase[] = [];
