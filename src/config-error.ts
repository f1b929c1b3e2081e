/** Thrown with every bad value at once, one line each, so an operator fixes them in one go. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
    this.name = 'ConfigError';
  }
}
