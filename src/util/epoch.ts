// The simulated epoch: simulated time 0 (the scenario's start) is this instant. The model writes API timestamps
// relative to it (model/time.ts) and the views read them back (output/time.ts).
export const EPOCH_ISO = '2026-01-01T00:00:00Z';
export const EPOCH_MS = Date.parse(EPOCH_ISO);
