/** The account page's places in the query cache (changes invalidate them). */
export const SESSIONS_KEY = ['account', 'sessions'];
export const TOKENS_KEY = ['account', 'tokens'];
