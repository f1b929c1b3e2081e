import { areaAccess } from '../../../core/auth/area-access.js';

export const { view, manage } = areaAccess('audit');
/** The scopes of the audit routes. */
