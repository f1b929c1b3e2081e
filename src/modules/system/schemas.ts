import { type Static, Type } from 'typebox';
import { NamedObject } from '../../core/http-schemas.js';

/** The shapes of the system area: the answer of the liveness and readiness probes. */

export const Status = NamedObject('ProbeStatus', { status: Type.String() });

export type Status = Static<typeof Status>;
