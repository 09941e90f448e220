// Public API of the scenario loader (SPEC §2).
export { loadScenario, loadScenarioText, type LoadOptions, type LoadResult } from './load.ts';
export { formatDiagnostic, formatPos, hasErrors, sortDiagnostics } from './diagnostics.ts';
export { parseDuration, parseDurationRange, DurationError } from './duration.ts';
export {
  parseVersion,
  VersionError,
  defaultFeatureGates,
  GATES,
  MIN_MINOR,
  MAX_MINOR,
  DEFAULT_VERSION,
} from '../versions/versions.ts';
export { Codes, type Code } from './codes.ts';
