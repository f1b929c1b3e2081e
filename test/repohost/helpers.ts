import { ACCESS, type FakeGitlab } from '../services/fake-gitlab-v4.js';

/** Tokens seeded into the fake GitLab, by what they can do. */
export const TOKENS = {
  /** alice, `api` scope: maintainer of project 1001, reporter elsewhere. */
  full: 'glpat-FullApiAliceToken0001',
  /** alice, read-only scopes. */
  readOnly: 'glpat-ReadOnlyAliceToken002',
  /** alice, `read_user` only: can see herself, not projects or groups. */
  userOnly: 'glpat-ReadUserAliceToken03',
  /** bob, `api`: developer on project 1001. */
  developer: 'glpat-DeveloperBobToken0004',
  /** carol, `api`: guest on project 1001. */
  guest: 'glpat-GuestCarolToken000005',
  /** dave, `api`: member of nothing. */
  loner: 'glpat-LonerDaveToken0000006',
  /** erin, `api`: maintainer of project 1002 only, which has no container registry. */
  noRegistry: 'glpat-NoRegistryErinToken09',
  revoked: 'glpat-RevokedAliceToken0007',
  expired: 'glpat-ExpiredAliceToken0008',
} as const;

export const PROJECT_COUNT = 250;

/** alice sees 3 groups and 250 projects (three pages of 100); project 1002 has no container registry. */
export function seedGitlab(fake: FakeGitlab): void {
  fake.users.push(
    { id: 1, username: 'alice', name: 'Alice Admin' },
    { id: 2, username: 'bob', name: 'Bob Builder' },
    { id: 3, username: 'carol', name: 'Carol Guest' },
    { id: 4, username: 'dave', name: 'Dave Alone' },
    { id: 5, username: 'erin', name: 'Erin Registryless' },
  );
  fake.tokens.push(
    { token: TOKENS.full, userId: 1, scopes: ['api'], expiresAt: '2027-12-31' },
    { token: TOKENS.readOnly, userId: 1, scopes: ['read_api', 'read_repository'], expiresAt: null },
    { token: TOKENS.userOnly, userId: 1, scopes: ['read_user'], expiresAt: '2027-06-30' },
    { token: TOKENS.developer, userId: 2, scopes: ['api'], expiresAt: '2027-12-31' },
    { token: TOKENS.guest, userId: 3, scopes: ['api'], expiresAt: '2027-12-31' },
    { token: TOKENS.loner, userId: 4, scopes: ['api'], expiresAt: '2027-12-31' },
    { token: TOKENS.noRegistry, userId: 5, scopes: ['api'], expiresAt: null },
    { token: TOKENS.revoked, userId: 1, scopes: ['api'], expiresAt: null, revoked: true },
    { token: TOKENS.expired, userId: 1, scopes: ['api'], expiresAt: '2020-01-01' },
  );
  fake.groups.push(
    { id: 11, name: 'Platform', fullPath: 'platform', members: { 1: ACCESS.owner } },
    { id: 12, name: 'Tools', fullPath: 'platform/tools', members: { 1: ACCESS.maintainer } },
    { id: 13, name: 'Web', fullPath: 'web', members: { 1: ACCESS.developer, 2: ACCESS.developer } },
  );
  for (let index = 0; index < PROJECT_COUNT; index++) {
    const id = 1001 + index;
    fake.projects.push({
      id,
      name: `Service ${index + 1}`,
      pathWithNamespace: `platform/service-${index + 1}`,
      members:
        id === 1001
          ? { 1: ACCESS.maintainer, 2: ACCESS.developer, 3: ACCESS.guest }
          : id === 1002
            ? { 1: ACCESS.reporter, 5: ACCESS.maintainer }
            : { 1: ACCESS.reporter },
      registryEnabled: id !== 1002,
    });
  }
}
