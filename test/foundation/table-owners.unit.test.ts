import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(import.meta.dirname, '../../src');

/**
 * Who owns each table, by schema file (src/db/schema/<file>.ts) and, where a file holds tables of two
 * owners, by table: the folder of src/ whose files may import it. docs/ARCHITECTURE.md lists the same.
 */
const OWNER_OF_FILE: Record<string, string> = {
  audit: 'modules/audit/',
  certificates: 'modules/certificates/',
  console: 'modules/console/',
  containerhost: 'modules/containerhost/',
  coordination: 'core/',
  databases: 'modules/databases/',
  identity: 'modules/users/',
  inference: 'modules/inference/',
  'inference-plane': 'modules/inference/',
  logging: 'modules/logging/',
  'logging-records': 'modules/logging/',
  nodes: 'modules/nodes/',
  notifications: 'modules/notifications/',
  pages: 'modules/pages/',
  repohost: 'modules/repohost/',
  siem: 'modules/audit/',
  'sign-in': 'modules/auth/',
};
const OWNER_OF_TABLE: Record<string, string> = {
  // Credentials are issued, resolved and revoked by core (core/auth/tokens.ts, principal-resolver.ts).
  authTokens: 'core/auth/',
  identityProviders: 'modules/identity-providers/',
  oidcSignIns: 'modules/identity-providers/',
};

/**
 * Files that use a table they do not own (`file → table`), each a dependency still to route through
 * the owner's service or a core port. The list only shrinks: a new use fails, and so does a gone one.
 */
const FOREIGN_TABLE_USES: string[] = [
  // Authenticating reads accounts: core resolves a token's user and group, and the sign-in account.
  'core/auth/accounts.ts → groups',
  'core/auth/accounts.ts → users',
  'core/auth/principal-resolver.ts → groups',
  'core/auth/principal-resolver.ts → users',
  // The first start creates the first group and administrator before any module is loaded.
  'bootstrap.ts → groups',
  'bootstrap.ts → users',
  // Core stamps each committed audit event with its sequence number and chain hash.
  'core/audit-sequencer.ts → auditEvents',
  'core/gateway-hostnames.ts → sslCertificates',
  // The password step reads the account and its second factor in one query, so an unknown email
  // costs what a known one does; the own-account and TOTP services read and write the password.
  'modules/auth/account.ts → authTokens',
  'modules/auth/account.ts → users',
  'modules/auth/login.ts → groups',
  'modules/auth/login.ts → users',
  'modules/auth/totp.ts → groups',
  'modules/auth/totp.ts → users',
  'modules/console/setup-codes.ts → users',
  // Single sign-on maps a provider's account to a user and group; users refuse deleting a group a
  // provider maps to.
  'modules/identity-providers/account-mapping.ts → groups',
  'modules/identity-providers/account-mapping.ts → users',
  'modules/identity-providers/provider-settings.ts → groups',
  'modules/identity-providers/providers.ts → groups',
  'modules/users/users.ts → identityProviders',
  // The sweep watches other modules' deadlines and states (expiring certificates and tokens, …).
  'modules/notifications/sweep.ts → containerhostHealthChecks',
  'modules/notifications/sweep.ts → repohostConnectors',
  'modules/notifications/sweep.ts → siemDestinations',
  'modules/notifications/sweep.ts → sslCertificates',
  // Alert rules on logs: notifications checks a rule's environment and saved search, and the
  // logging job reads the rules it evaluates.
  'modules/logging/alert-rules.ts → notificationRules',
  'modules/notifications/rules.ts → loggingEnvironments',
  'modules/notifications/rules.ts → loggingSavedSearches',
  'modules/pages/deploy-tokens.ts → groups',
  'modules/pages/deploy-tokens.ts → users',
  'modules/pages/domains.ts → sslCertificates',
];

/** Every table the schema exports, with the schema file it is declared in. */
function tables(): Map<string, string> {
  const found = new Map<string, string>();
  const dir = path.join(SRC, 'db/schema');
  for (const file of fs.readdirSync(dir)) {
    const text = fs.readFileSync(path.join(dir, file), 'utf8');
    for (const [, name] of text.matchAll(/export const (\w+) = pgTable\(/g))
      found.set(name!, file.slice(0, -3));
  }
  return found;
}

function sourceFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) =>
      entry.isDirectory()
        ? sourceFiles(path.join(dir, entry.name))
        : entry.name.endsWith('.ts')
          ? [path.join(dir, entry.name)]
          : [],
    );
}

/** The names a file imports from the schema (`import { users, type User } from '…/db/schema/…'`). */
function schemaImports(text: string): string[] {
  return [
    ...text.matchAll(/import\s*(?:type\s*)?\{([^}]*)\}\s*from\s*'[./]*db\/schema\/[\w-]+\.js'/g),
  ].flatMap(([, names]) =>
    names!.split(',').map((name) =>
      name
        .replace(/^\s*type\s+/, '')
        .split(' as ')[0]!
        .trim(),
    ),
  );
}

describe('table owners', () => {
  const declared = tables();
  const ownerOf = (table: string) => OWNER_OF_TABLE[table] ?? OWNER_OF_FILE[declared.get(table)!];

  it('name an owner for every table', () => {
    expect([...declared.keys()].filter((table) => ownerOf(table) === undefined)).toEqual([]);
  });

  it('are the only files that use their tables, beside the allow-list', () => {
    const foreign = sourceFiles(SRC).flatMap((file) => {
      const relative = path.relative(SRC, file);
      if (relative.startsWith('db/')) return [];
      return schemaImports(fs.readFileSync(file, 'utf8'))
        .filter((name) => declared.has(name) && !relative.startsWith(ownerOf(name)!))
        .map((table) => `${relative} → ${table}`);
    });
    expect(foreign.sort()).toEqual([...FOREIGN_TABLE_USES].sort());
  });
});
