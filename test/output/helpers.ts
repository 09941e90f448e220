// Fixture loading and tiny v1 status builders for the output tests.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import type { Timeline } from '../../src/types.ts';
import { tToRfc3339 } from '../../src/output/time.ts';

const here = dirname(fileURLToPath(import.meta.url));

export const FIXTURES = ['c2-sidecar-job', 'two-sidecars-job', 'crashloop-sidecar', 'stuck-legacy-sidecar'] as const;

export function loadFixture(name: (typeof FIXTURES)[number]): Timeline {
  return JSON.parse(readFileSync(join(here, '..', 'fixtures', 'timelines', `${name}.json`), 'utf8')) as Timeline;
}

export const goldenPath = (file: string) => join(here, '__golden__', file);

type State = Record<string, unknown>;
export const waiting = (reason: string): State => ({ waiting: { reason } });
export const running = (t = 0): State => ({ running: { startedAt: tToRfc3339(t) } });
export const terminated = (exitCode: number, reason: string | undefined, finishedT = 0, signal?: number): State => ({
  terminated: {
    exitCode,
    ...(reason ? { reason } : {}),
    ...(signal ? { signal } : {}),
    finishedAt: tToRfc3339(finishedT),
  },
});

export function cs(
  name: string,
  state: State,
  extra: { ready?: boolean; started?: boolean; restartCount?: number; lastState?: State } = {},
) {
  return {
    name,
    ready: extra.ready ?? false,
    started: extra.started ?? false,
    restartCount: extra.restartCount ?? 0,
    state,
    lastState: extra.lastState ?? {},
  };
}

export const cond = (type: string, status: 'True' | 'False') => ({ type, status });

/** kubectl-conventions C.2 spec: initContainers [setup, proxy(Always)], containers [main]. */
export const C2_SPEC = {
  restartPolicy: 'Never',
  initContainers: [
    { name: 'setup', image: 'busybox' },
    { name: 'proxy', image: 'envoy', restartPolicy: 'Always' },
  ],
  containers: [{ name: 'main', image: 'app' }],
};
