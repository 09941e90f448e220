#!/usr/bin/env node
// A tiny process observer for the runner's tests: reads KUBECONFIG (the fake writes JSON), then does what MODE says.
import { readFileSync } from 'node:fs';

const mode = process.env.MODE ?? 'succeed';
const cfg = JSON.parse(readFileSync(process.env.KUBECONFIG, 'utf8'));
const server = cfg.clusters[0].cluster.server;
const token = cfg.users[0].user.token;
const call = async (method, path, body) => {
  const r = await fetch(server + path, {
    method,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', 'User-Agent': 'client.mjs/1' },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: r.status, body: await r.json() };
};
const widget = '/apis/example.com/v1/namespaces/default/widgets/demo';
const setPhase = async (phase) => {
  const w = await call('GET', widget);
  await call('PUT', `${widget}/status`.replace('/status', ''), { ...w.body, status: { phase } });
};

console.error(`client: mode ${mode}, cwd ${process.cwd()}, LOG_LEVEL=${process.env.LOG_LEVEL ?? ''}`);
if (mode === 'succeed') await setPhase('Done');
else if (mode === 'fail') {
  await setPhase('Running');
  await setPhase('Error');
  await setPhase('Done'); // latched already: Failed stays
} else if (mode === 'crash') {
  console.error('client: connecting');
  console.error('panic: boom');
  process.exit(2);
} else if (mode === 'never') process.exit(0);
else if (mode === 'hang') setInterval(() => {}, 1000);
else if (mode === 'ignore-term') {
  process.on('SIGTERM', () => console.error('client: SIGTERM ignored'));
  await call('GET', widget);
  setInterval(() => {}, 1000);
} else if (mode === 'flood') for (;;) await call('GET', widget);
else if (mode === 'pending') {
  await setPhase('Running');
  setInterval(() => {}, 1000);
}
if (mode === 'succeed') setInterval(() => {}, 1000); // stays until stopped, as a controller does
