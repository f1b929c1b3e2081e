import { type ConfigError, loadConfig } from '../../src/config.js';

/** What loadConfig reports about these settings (none: they are all fine). */
export function configProblems(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
    return [];
  } catch (error) {
    return (error as ConfigError).problems;
  }
}
