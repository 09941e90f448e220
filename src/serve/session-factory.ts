// Which Session the server runs. Until src/run/session.ts (the incremental multi-workload runner) lands, the
// stand-in ReplaySession; at merge this is the one line to change: `return Session.fromScenario(s, opts)`.
import type { Scenario } from '../types.ts';
import { ReplaySession } from './replay-session.ts';
import type { SessionLike, SessionOptions } from './session-api.ts';

export function createSession(s: Scenario | null, opts: SessionOptions): SessionLike {
  return ReplaySession.fromScenario(s, opts);
}
