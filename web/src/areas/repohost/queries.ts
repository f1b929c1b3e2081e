import type { Answer, Body } from '../../api/types';

export type Connector = Answer<'/api/integrations/repohost/connectors', 'get'>['data'][number];
export type Preview = Answer<'/api/integrations/repohost/connectors/preview-test', 'post'>['data'];
export type TestReport = Answer<'/api/integrations/repohost/connectors/{id}/test', 'post'>['data'];
export type AllowlistEntry = Preview['allowlistEntries'][number];
export type AllowlistRequest = NonNullable<
  Body<'/api/integrations/repohost/connectors', 'post'>['allowlist']
>;

/** The integrations area's place in the query cache; a change invalidates all of it. */
export const CONNECTORS_KEY = ['integrations', 'repohost'];

export const connectorPath = (id: string) => `/integrations/repohost/${id}`;
