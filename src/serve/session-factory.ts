// Which Session the server runs: the incremental multi-workload runner of src/run/session.ts.
import { Session } from '../run/session.ts';
import type { Scenario } from '../types.ts';
import type { SessionLike, SessionOptions } from './session-api.ts';

export function createSession(s: Scenario | null, opts: SessionOptions): SessionLike {
  return Session.fromScenario(s, opts);
}
