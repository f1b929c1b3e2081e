/** Failures in a row after which a target is skipped, and for how long. */
export interface CircuitSettings {
  failures: number;
  coolDownMs: number;
}

interface TargetState {
  failures: number;
  openUntil: number;
  lastError: string;
}

/**
 * The circuit of each connection, in this process: after `failures` failed calls in a row a
 * connection is skipped for `coolDownMs`; the first call after the cool-down tries it again (one
 * more failure opens it again, a success closes it). Connections are bounded by the operator's
 * records, so a plain map serves.
 */
export class Circuits {
  private readonly states = new Map<string, TargetState>();

  constructor(private readonly settings: CircuitSettings) {}

  /** Why the connection is skipped now, or undefined when it may be tried. */
  skipped(connectionId: string, now = Date.now()): string | undefined {
    const state = this.states.get(connectionId);
    if (!state || state.openUntil <= now) return undefined;
    return `skipped until ${new Date(state.openUntil).toISOString()} after ${state.failures} failures in a row (last: ${state.lastError})`;
  }

  failed(connectionId: string, error: string, now = Date.now()): void {
    const state = this.states.get(connectionId) ?? { failures: 0, openUntil: 0, lastError: error };
    state.failures++;
    state.lastError = error;
    if (state.failures >= this.settings.failures) state.openUntil = now + this.settings.coolDownMs;
    this.states.set(connectionId, state);
  }

  succeeded(connectionId: string): void {
    this.states.delete(connectionId);
  }

  /** The state of a connection, for the console's route health. */
  health(connectionId: string, now = Date.now()) {
    const state = this.states.get(connectionId);
    return {
      consecutiveFailures: state?.failures ?? 0,
      open: state !== undefined && state.openUntil > now,
      lastError: state?.lastError ?? null,
    };
  }
}
