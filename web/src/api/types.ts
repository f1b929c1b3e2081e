/** Types of records, bodies and queries, read from the API's generated types (shared with the CLI). */
export type { Answer, Body, EventData, Query } from '../../../src/core/openapi/api-operations';
