// Every table of the gateway, one file per area; migrations/ holds the SQL that creates them.
export * from './audit.js';
export * from './identity.js';
export * from './siem.js';
