/** An address an ACME CA accepts as an account contact: something@domain.tld, no spaces. */
export const ACME_EMAIL_PATTERN = '^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$';
