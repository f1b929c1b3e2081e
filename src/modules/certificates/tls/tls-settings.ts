import type tls from 'node:tls';

/**
 * TLS 1.2 and 1.3 only. For TLS 1.2, forward-secret AEAD suites only (Mozilla's "intermediate"
 * list); TLS 1.3 suites are Node's defaults, all of them AEAD.
 */
export const TLS_SETTINGS: Pick<tls.SecureContextOptions, 'minVersion' | 'ciphers' | 'honorCipherOrder'> = {
  minVersion: 'TLSv1.2',
  ciphers: [
    'TLS_AES_128_GCM_SHA256',
    'TLS_AES_256_GCM_SHA384',
    'TLS_CHACHA20_POLY1305_SHA256',
    'ECDHE-ECDSA-AES128-GCM-SHA256',
    'ECDHE-RSA-AES128-GCM-SHA256',
    'ECDHE-ECDSA-AES256-GCM-SHA384',
    'ECDHE-RSA-AES256-GCM-SHA384',
    'ECDHE-ECDSA-CHACHA20-POLY1305',
    'ECDHE-RSA-CHACHA20-POLY1305',
  ].join(':'),
  honorCipherOrder: true,
};
