import { type Static, Type } from 'typebox';

/** The shapes of the system area: the answer of the liveness and readiness probes. */

export const Status = Type.Object({ status: Type.String() });

export type Status = Static<typeof Status>;
