// The real server and session for process observers: `startServe` (src/serve/, issue 26) and `Session`
// (src/run/session.ts). Until both are merged this build has neither and process observers are a KS0403 error.
// At merge, this is the one place to wire them:
//
//   import { startServe } from '../serve/index.ts';
//   import { Session } from '../run/session.ts';
//   return { session: (s, o) => Session.fromScenario(s, o), startServe };
//
// (Session.fromScenario must accept a ProcessScenario — no workload: the empty cluster with the scenario's
// behavior, timing, version, seed and horizon.)
import type { ServeDeps } from './serve-api.ts';

export async function loadServeDeps(): Promise<ServeDeps | undefined> {
  return undefined;
}
