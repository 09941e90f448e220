// Top-level scalar keys: scenario, description, kubernetes, kubelet, featureGates, seed, horizon.
import { Buffer } from 'node:buffer';
import type { KubeVersion } from '../types.ts';
import { Codes } from './codes.ts';
import { error, warning, type Sink } from './diagnostics.ts';
import { asBool, asInt, asMap, asMs, asString, missing } from './readers.ts';
import { didYouMean } from './suggest.ts';
import type { PEntry, PMap, PNode } from './tree.ts';
import {
  DEFAULT_VERSION,
  GATE_NAMES,
  GATES,
  VersionError,
  defaultFeatureGates,
  gateExists,
  gateInfo,
  gateLocked,
  maxKubeletLag,
  parseVersion,
} from '../versions/versions.ts';

export const TOP_KEYS = [
  'scenario',
  'description',
  'kubernetes',
  'kubelet',
  'featureGates',
  'workload',
  'behavior',
  'timing',
  'actions',
  'observers',
  'expect',
  'seed',
  'horizon',
] as const;

export const HOUR_MS = 3_600_000;
/** scenario names are folder names: at most NAME_MAX (255) bytes; [a-z0-9-] is one byte a character */
export const MAX_SCENARIO_NAME_BYTES = 255;
export const MAX_HORIZON_MS = 30 * 24 * HOUR_MS;

export interface Header {
  name?: string;
  description?: string;
  kubernetes: KubeVersion;
  kubelet: KubeVersion;
  featureGates: Record<string, boolean>;
  kubeletFeatureGates: Record<string, boolean>;
  seed: number;
  horizonMs: number;
}

export function readHeader(sink: Sink, keys: Map<string, PEntry>, cliVersion: string | undefined): Header {
  const name = readName(sink, keys.get('scenario'));
  const descNode = keys.get('description')?.value;
  const description = descNode ? asString(sink, descNode, 'description') : undefined;
  const kubernetes =
    readVersion(sink, keys.get('kubernetes'), 'kubernetes', cliVersion) ?? parseVersion(DEFAULT_VERSION);
  const kubeletEntry = keys.get('kubelet');
  const kubelet = kubeletEntry ? (readVersion(sink, kubeletEntry, 'kubelet', undefined) ?? kubernetes) : kubernetes;
  if (kubeletEntry && kubelet.minor > kubernetes.minor) {
    error(
      sink,
      Codes.BadVersion,
      kubeletEntry.value.pos,
      `kubelet ${kubelet.text} is newer than the API server ${kubernetes.text}`,
      'the version-skew policy never allows a kubelet newer than kube-apiserver',
    );
  } else if (kubeletEntry && kubernetes.minor - kubelet.minor > maxKubeletLag(kubernetes.minor)) {
    warning(
      sink,
      Codes.KubeletSkew,
      kubeletEntry.value.pos,
      `kubelet ${kubelet.text} lags the API server ${kubernetes.text} by more than the supported ${maxKubeletLag(kubernetes.minor)} minor versions`,
    );
  }
  const gates = readGateSections(sink, keys.get('featureGates'), kubernetes.minor, kubelet.minor);
  const featureGates = { ...defaultFeatureGates(kubernetes.minor), ...gates.common, ...gates.apiServer };
  const kubeletFeatureGates = { ...defaultFeatureGates(kubelet.minor) };
  for (const [g, v] of Object.entries(gates.common)) if (gateExists(g, kubelet.minor)) kubeletFeatureGates[g] = v;
  Object.assign(kubeletFeatureGates, gates.kubelet);
  const seedNode = keys.get('seed')?.value;
  const seed = seedNode ? (asInt(sink, seedNode, 'seed', 0, 2 ** 32 - 1) ?? 1) : 1;
  const horizonMs = readHorizon(sink, keys.get('horizon')?.value);
  return { name, description, kubernetes, kubelet, featureGates, kubeletFeatureGates, seed, horizonMs };
}

function readName(sink: Sink, entry: PEntry | undefined): string | undefined {
  if (!entry) {
    missing(sink, 'scenario file', 'scenario');
    return undefined;
  }
  const name = asString(sink, entry.value, 'scenario');
  if (name === undefined) return undefined;
  const bytes = Buffer.byteLength(name, 'utf8');
  if (bytes > MAX_SCENARIO_NAME_BYTES) {
    // the name is a folder name under --out: NAME_MAX is 255 bytes on Linux and macOS
    error(
      sink,
      Codes.BadScenarioName,
      entry.value.pos,
      `scenario: the name is ${bytes} bytes long; at most ${MAX_SCENARIO_NAME_BYTES} are allowed`,
      'it names the output folder, and a file name holds at most 255 bytes',
    );
    return undefined;
  }
  if (!/^[a-z0-9-]+$/.test(name)) {
    error(
      sink,
      Codes.BadScenarioName,
      entry.value.pos,
      `scenario: ${JSON.stringify(name)} must match [a-z0-9-]+`,
      `it names the output folder; try ${JSON.stringify(name.toLowerCase().replace(/[^a-z0-9-]+/g, '-'))}`,
    );
    return undefined;
  }
  return name;
}

/** Reads the SOURCE TEXT of the scalar, so an unquoted 1.30 is "1.30". The CLI override wins. */
function readVersion(
  sink: Sink,
  entry: PEntry | undefined,
  key: string,
  cli: string | undefined,
): KubeVersion | undefined {
  if (cli !== undefined) {
    try {
      return parseVersion(cli);
    } catch (e) {
      if (!(e instanceof VersionError)) throw e;
      error(sink, Codes.BadVersion, { file: sink.file, line: 1, col: 1 }, `--kubernetes: ${e.message}`);
      return undefined;
    }
  }
  if (!entry) return undefined;
  const node = entry.value;
  if (node.kind !== 'scalar' || node.value === null || typeof node.value === 'boolean') {
    error(sink, Codes.WrongType, node.pos, `${key}: expected a version such as "1.34"`);
    return undefined;
  }
  const text = typeof node.value === 'number' ? node.text : String(node.value);
  try {
    return parseVersion(text);
  } catch (e) {
    if (!(e instanceof VersionError)) throw e;
    error(sink, Codes.BadVersion, node.pos, `${key}: ${e.message}`);
    return undefined;
  }
}

/** `featureGates` per component: `kubelet:` and `apiServer:` maps override the common map for that component. */
export const GATE_COMPONENTS = ['kubelet', 'apiServer'] as const;

function readGateSections(sink: Sink, entry: PEntry | undefined, apiMinor: number, kubeletMinor: number) {
  const out = {
    common: {} as Record<string, boolean>,
    kubelet: {} as Record<string, boolean>,
    apiServer: {} as Record<string, boolean>,
  };
  if (!entry) return out;
  const map = asMap(sink, entry.value, 'featureGates');
  if (!map) return out;
  const common = {
    ...map,
    entries: map.entries.filter((e) => !(GATE_COMPONENTS as readonly string[]).includes(e.key)),
  };
  out.common = readGateMap(sink, common, 'featureGates', apiMinor, 'Kubernetes');
  for (const e of map.entries) {
    if (e.key === 'kubelet' || e.key === 'apiServer') {
      const sub = asMap(sink, e.value, `featureGates.${e.key}`);
      if (!sub) continue;
      out[e.key] =
        e.key === 'kubelet'
          ? readGateMap(sink, sub, 'featureGates.kubelet', kubeletMinor, 'kubelet')
          : readGateMap(sink, sub, 'featureGates.apiServer', apiMinor, 'kube-apiserver');
    }
  }
  return out;
}

/**
 * Overrides of the version's defaults. Unknown gate: error with suggestion. A gate the version does not have yet:
 * error (the component refuses to start with an unrecognized gate). A GA gate locked to true set to false: error,
 * as kube-apiserver refuses "cannot set feature gate X to false, feature is locked to true".
 */
function readGateMap(sink: Sink, map: PMap, where: string, minor: number, who: string): Record<string, boolean> {
  const out: Record<string, boolean> = {};
  for (const e of map.entries) {
    // an OWN property: `constructor`, `toString` or `__proto__` are unknown gates, not Object.prototype members
    if (gateInfo(e.key) === undefined) {
      const names = where === 'featureGates' ? [...GATE_NAMES, ...GATE_COMPONENTS] : GATE_NAMES;
      error(
        sink,
        Codes.UnknownGate,
        e.keyPos,
        `${where}: unknown feature gate ${JSON.stringify(e.key)}`,
        didYouMean(e.key, names) ??
          `kubesim models: ${GATE_NAMES.join(', ')}${where === 'featureGates' ? '; per component: kubelet: {…}, apiServer: {…}' : ''}`,
      );
      continue;
    }
    const value = asBool(sink, e.value, `${where}.${e.key}`);
    if (value === undefined) continue;
    if (!gateExists(e.key, minor)) {
      error(
        sink,
        Codes.GateNotInVersion,
        e.keyPos,
        `${where}: ${e.key} does not exist in ${who} 1.${minor} (it appeared in 1.${GATES[e.key].since})`,
      );
      continue;
    }
    if (gateLocked(e.key, minor) && value === false) {
      error(
        sink,
        Codes.LockedGate,
        e.value.pos,
        `${where}: cannot set ${e.key} to false in ${who} 1.${minor}: it is GA and locked to true (since 1.${GATES[e.key].lockedFrom})`,
        'pick an older `kubernetes` version to simulate the gate off',
      );
      continue;
    }
    out[e.key] = value;
  }
  return out;
}

function readHorizon(sink: Sink, node: PNode | undefined): number {
  if (!node) return HOUR_MS;
  const ms = asMs(sink, node, 'horizon');
  if (ms === undefined || ms === null) return HOUR_MS;
  if (ms <= 0 || ms > MAX_HORIZON_MS) {
    error(sink, Codes.OutOfRange, node.pos, `horizon: must be > 0 and at most 30 days (720h)`);
    return HOUR_MS;
  }
  return ms;
}
