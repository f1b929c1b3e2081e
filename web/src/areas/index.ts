import account from './account';
import type { ConsoleArea } from './area';
import certificates from './certificates';
import containerhost from './containerhost';
import overview from './overview';
import pages from './pages';
import users from './users';

/**
 * Every area of the console, in navigation order. The full order is Overview, Containers,
 * Databases, Logging, Audit, Certificates, Pages, Integrations, Inference, Nodes, Users, Account:
 * an area's line goes here, in its place, once its folder exists.
 */
export const consoleAreas: readonly ConsoleArea[] = [
  overview,
  containerhost,
  certificates,
  pages,
  users,
  account,
];
