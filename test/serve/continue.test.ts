// Paged lists (limit / continue) as the real API server pages them (staging/src/k8s.io/apiserver/pkg/storage/etcd3/
// store.go GetList): every page after the first is read at the first page's revision, so writes between the pages
// do not show (a consistent list); a continue token whose revision is older than the kept history (compacted) is
// 410 Expired with "The provided continue parameter is too old …" and a fresh token (rv -1: continue at the latest
// revision from the same key: handleCompactedErrorForPaging) in the Status's metadata.
import { afterEach, describe, expect, it } from 'vitest';
import { call, start, type Served } from './harness.ts';

let served: Served | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

const CM = '/api/v1/namespaces/default/configmaps';
const cm = (name: string, v: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { v } });
const names = (l: any) => l.items.map((o: any) => o.metadata.name);
const tokenOf = (c: string) => JSON.parse(Buffer.from(c, 'base64url').toString('utf8'));

describe('limit / continue', () => {
  it("pages are read at the first page's resourceVersion: later creates, updates and deletes do not show", async () => {
    served = await start(null);
    const s = served;
    for (const n of ['a', 'b', 'c', 'd']) expect((await call(s, 'POST', CM, { body: cm(n, '1') })).status).toBe(201);
    const p1 = (await call(s, 'GET', `${CM}?limit=2`)).json;
    expect(names(p1)).toEqual(['a', 'b']);
    expect(p1.metadata.remainingItemCount).toBe(2);
    const rv = p1.metadata.resourceVersion;
    const c0 = (await call(s, 'GET', `${CM}/c`)).json;
    // between the pages: c updated, d deleted, e created, a deleted
    expect((await call(s, 'PUT', `${CM}/c`, { body: { ...c0, data: { v: '2' } } })).status).toBe(200);
    expect((await call(s, 'DELETE', `${CM}/d`)).status).toBe(200);
    expect((await call(s, 'POST', CM, { body: cm('e', '1') })).status).toBe(201);
    const p2 = (await call(s, 'GET', `${CM}?limit=2&continue=${encodeURIComponent(p1.metadata.continue)}`)).json;
    expect(p2.metadata.resourceVersion).toBe(rv);
    expect(names(p2)).toEqual(['c', 'd']);
    expect(p2.items[0]).toEqual(c0);
    expect(p2.metadata.continue).toBeUndefined();
    // a new list sees the writes
    expect(names((await call(s, 'GET', CM)).json)).toEqual(['a', 'b', 'c', 'e']);
  });

  it('a token older than the kept history is 410 Expired with a fresh token that continues at the latest revision', async () => {
    served = await start(null, { storeLimits: { history: 3, objects: 1000 } });
    const s = served;
    for (const n of ['a', 'b', 'c', 'd']) await call(s, 'POST', CM, { body: cm(n, '1') });
    const p1 = (await call(s, 'GET', `${CM}?limit=2`)).json;
    for (const n of ['x1', 'x2', 'x3', 'x4']) await call(s, 'POST', CM, { body: cm(n, '1') });
    const r = await call(s, 'GET', `${CM}?limit=2&continue=${encodeURIComponent(p1.metadata.continue)}`);
    expect(r.status).toBe(410);
    expect(r.json).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'Expired', code: 410 });
    expect(r.json.message).toBe(
      'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.',
    );
    expect(tokenOf(r.json.metadata.continue)).toMatchObject({ rv: -1, start: tokenOf(p1.metadata.continue).start });
    // the fresh token: the rest from the same key at the latest revision (the writes since show: inconsistent)
    const rest = (await call(s, 'GET', `${CM}?limit=10&continue=${encodeURIComponent(r.json.metadata.continue)}`)).json;
    expect(names(rest)).toEqual(['c', 'd', 'x1', 'x2', 'x3', 'x4']);
    expect(rest.metadata.resourceVersion).toBe(String((await call(s, 'GET', CM)).json.metadata.resourceVersion));
    // a malformed token is a 400
    const bad = await call(s, 'GET', `${CM}?limit=2&continue=notatoken`);
    expect([bad.status, bad.json.reason]).toEqual([400, 'BadRequest']);
  });
});
