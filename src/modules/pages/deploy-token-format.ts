/**
 * The shape of a deploy token's secret. Its own prefix keeps it apart from API tokens (`igw_`), so
 * no other route mistakes one for the other, and lets the CLI tell which kind it was given.
 */
export const DEPLOY_TOKEN_PREFIX = 'igp_';

export const looksLikeDeployToken = (value: string) => /^igp_[A-Za-z0-9_-]{43}$/.test(value);
