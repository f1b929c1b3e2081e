import { invalidField } from './errors.js';

/** Trims a display name and refuses one that is blank once trimmed. */
export function trimmedName(value: string, path: (string | number)[] = ['name']): string {
  const trimmed = value.trim();
  if (trimmed.length === 0) throw invalidField(path, 'must not be blank');
  return trimmed;
}
