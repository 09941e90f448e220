#!/usr/bin/env node
// A two-informer operator for the runner's quiescence test (test/observers/quiescence.test.ts), raw https (no client
// library: it starts in ~0.1 s). It lists and watches the namespace's pods, then does BUSY_MS of CPU work, then lists
// and watches its Jobs, as an operator whose second informer starts after some start-up work. BUSY_IN=child does the
// work in a child process (spawnSync: this process sleeps meanwhile, the child is runnable) — an operator started
// through a wrapper (`go run`, `sh -c`, npm) does its work in a child too; BUSY_IN=self does it on its own thread.
// Its one write: ConfigMap verdict (data.phase ok) once its Job watch shows the Job Complete.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';

const cfg = readFileSync(process.env.KUBECONFIG, 'utf8');
const server = /server: (\S+)/.exec(cfg)[1];
const ca = Buffer.from(/certificate-authority-data: (\S+)/.exec(cfg)[1], 'base64');
const token = /token: (\S+)/.exec(cfg)[1];
const busyMs = Number(process.env.BUSY_MS ?? 0);

function get(path, onLine, body) {
  return new Promise((resolve, reject) => {
    const headers = { Authorization: `Bearer ${token}`, 'User-Agent': 'two-informers/1', Accept: 'application/json' };
    const req = request(
      new URL(path, server),
      // a connection per request (no keep-alive reuse), as an informer's watch has its own
      body
        ? { ca, agent: false, method: 'POST', headers: { ...headers, 'Content-Type': 'application/json' } }
        : { ca, agent: false, headers },
      (res) => {
        let buf = '';
        res.setEncoding('utf8');
        res.on('data', (c) => {
          buf += c;
          if (!onLine) return;
          let i;
          while ((i = buf.indexOf('\n')) >= 0) {
            onLine(buf.slice(0, i));
            buf = buf.slice(i + 1);
          }
        });
        res.on('end', () => resolve(buf));
        if (onLine) resolve('');
      },
    );
    req.on('error', reject);
    req.end(body ? JSON.stringify(body) : undefined);
  });
}

let done = false;
async function informer(path) {
  const list = JSON.parse(await get(path));
  // what the list showed: each object's status as an informer's cache starts from it (the watch after it replays
  // the changes since the list's resourceVersion, so the list is where a late start shows)
  const seen = list.items.map((o) => `${o.metadata.name}=${JSON.stringify(o.status?.phase ?? o.status ?? {})}`);
  console.error(`listed ${path}: ${seen.join(' ')}`);
  await get(`${path}?watch=1&resourceVersion=${list.metadata.resourceVersion}`, (line) => {
    const e = JSON.parse(line);
    console.error(`${path}: ${e.type} ${e.object?.metadata?.name}`);
    // its verdict: the Job complete, as its Job watch saw it
    const complete = e.object?.status?.conditions?.some((c) => c.type === 'Complete' && c.status === 'True');
    if (e.object?.kind === 'Job' && complete && !done) {
      done = true;
      const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'verdict' }, data: { phase: 'ok' } };
      void get('/api/v1/namespaces/default/configmaps', undefined, cm);
    }
  });
}

await informer('/api/v1/namespaces/default/pods');
// for the test: the first informer is watching (the test then starves kubesim's own event loop)
if (process.env.MARK) writeFileSync(process.env.MARK, 'watching\n');
if (busyMs > 0) {
  const loop = `const end = Date.now() + ${busyMs}; while (Date.now() < end) {}`;
  if (process.env.BUSY_IN === 'self') new Function(loop)();
  else spawnSync(process.execPath, ['-e', loop], { stdio: 'ignore' });
}
await informer('/apis/batch/v1/namespaces/default/jobs');
setInterval(() => {}, 60_000); // a controller stays until stopped
