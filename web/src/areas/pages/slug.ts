const MAX_SLUG = 63;

/**
 * A slug suggested from a project's name (`My Docs!` → `my-docs`): lowercase letters, digits and
 * single hyphens, at most 63, starting and ending with a letter or digit, as the gateway requires.
 */
export function slugFrom(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+/, '')
    .slice(0, MAX_SLUG)
    .replace(/-+$/, '');
}
