/** The API's generated types, shared with the CLI (`npm run openapi` regenerates them). */
export type { components, operations, paths } from '../../../src/core/openapi/api-types';
