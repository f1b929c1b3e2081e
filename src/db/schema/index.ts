// Every table of the gateway, one file per area; migrations/ holds the SQL that creates them.
export * from './audit.js';
export * from './certificates.js';
export * from './console.js';
export * from './containerhost.js';
export * from './coordination.js';
export * from './databases.js';
export * from './identity.js';
export * from './inference.js';
export * from './inference-plane.js';
export * from './logging.js';
export * from './logging-records.js';
export * from './nodes.js';
export * from './notifications.js';
export * from './pages.js';
export * from './repohost.js';
export * from './siem.js';
export * from './sign-in.js';
