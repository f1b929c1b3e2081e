import account from './account';
import type { ConsoleArea } from './area';
import audit from './audit';
import certificates from './certificates';
import containerhost from './containerhost';
import databases from './databases';
import inference from './inference';
import logging from './logging';
import nodes from './nodes';
import notifications from './notifications';
import overview from './overview';
import pages from './pages';
import repohost from './repohost';
import users from './users';

/**
 * Every area of the console, in navigation order. The full order is Overview, Containers,
 * Databases, Logging, Audit, Certificates, Pages, Integrations, Inference, Nodes, Notifications,
 * Users, Account: an area's line goes here, in its place, once its folder exists.
 */
export const consoleAreas: readonly ConsoleArea[] = [
  overview,
  containerhost,
  databases,
  logging,
  audit,
  certificates,
  pages,
  repohost,
  inference,
  nodes,
  notifications,
  users,
  account,
];
