import { areaAccess } from '../../../core/auth/area-access.js';

export const { view, manage } = areaAccess('logging');
/** The scopes of the logging routes. */
