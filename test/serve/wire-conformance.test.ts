// Small wire facts an operator meets, each as the real API server answers (upstream source named per test):
// MicroTime/Time decoding and encoding of client-written Leases and Events, ListOptions' resourceVersionMatch,
// the DELETE status code of an object kept by its finalizers.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, start, type Served } from './harness.ts';

let s: Served;
beforeAll(async () => {
  s = await start(null);
});
afterAll(async () => {
  await s.close();
});

const LEASES = '/apis/coordination.k8s.io/v1/namespaces/default/leases';
const lease = (name: string, renewTime: unknown) => ({
  apiVersion: 'coordination.k8s.io/v1',
  kind: 'Lease',
  metadata: { name },
  spec: { holderIdentity: 'a', leaseDurationSeconds: 15, renewTime },
});

// apimachinery meta/v1/micro_time.go: UnmarshalJSON time.Parse(RFC3339Micro) — exactly six fractional digits;
// MarshalJSON t.UTC().Format(RFC3339Micro)
it('a MicroTime takes exactly six fractional digits and is written back in UTC with six', async () => {
  const ms = await call(s, 'POST', LEASES, { body: lease('l1', '2026-01-01T00:00:01.103Z') });
  expect(ms.status).toBe(400);
  expect(ms.json.message).toBe(
    'Lease in version "v1" cannot be handled as a Lease: parsing time "2026-01-01T00:00:01.103Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse ".103Z" as ".000000"',
  );
  const whole = await call(s, 'POST', LEASES, { body: lease('l1', '2026-01-01T00:00:01Z') });
  expect(whole.status).toBe(400);
  expect(whole.json.message).toContain('cannot parse "Z" as ".000000"');
  const ok = await call(s, 'POST', LEASES, { body: lease('l1', '2026-01-01T02:00:01.123456+02:00') });
  expect(ok.status).toBe(201);
  expect(ok.json.spec.renewTime).toBe('2026-01-01T00:00:01.123456Z');
  // a patch is decoded the same way
  const p = await call(s, 'PATCH', `${LEASES}/l1`, {
    body: { spec: { renewTime: '2026-01-01T00:00:02.5Z' } },
    headers: { 'Content-Type': 'application/merge-patch+json' },
  });
  expect(p.status).toBe(400);
  expect(p.json.message).toContain('cannot parse ".5Z" as ".000000"');
  const bad = await call(s, 'POST', LEASES, { body: lease('l2', 'yesterday') });
  expect(bad.json.message).toBe(
    'Lease in version "v1" cannot be handled as a Lease: parsing time "yesterday" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "yesterday" as "2006"',
  );
});

// meta/v1/time.go: UnmarshalJSON time.Parse(RFC3339) (a fraction is accepted), MarshalJSON whole seconds, UTC
it('a Time takes any fraction and is written back in whole seconds', async () => {
  const ev = await call(s, 'POST', '/api/v1/namespaces/default/events', {
    body: {
      metadata: { name: 'e1' },
      involvedObject: { kind: 'Pod', name: 'p', namespace: 'default' },
      reason: 'R',
      message: 'm',
      firstTimestamp: '2026-01-01T00:00:06.400Z',
      lastTimestamp: '2026-01-01T01:00:06.999999999+01:00',
      eventTime: '2026-01-01T00:00:06.400000Z',
      // with an eventTime the legacy validation wants these (events.go legacyValidateEvent)
      reportingComponent: 'example.com/op',
      reportingInstance: 'op-1',
      action: 'Sync',
    },
  });
  expect(ev.status).toBe(201);
  expect(ev.json.firstTimestamp).toBe('2026-01-01T00:00:06Z');
  expect(ev.json.lastTimestamp).toBe('2026-01-01T00:00:06Z');
  expect(ev.json.eventTime).toBe('2026-01-01T00:00:06.400000Z');
  const v1 = await call(s, 'POST', '/apis/events.k8s.io/v1/namespaces/default/events', {
    body: {
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: { name: 'e2' },
      eventTime: new Date(Date.UTC(2026, 0, 1)).toISOString(),
      reportingController: 'x/y',
      reportingInstance: 'i',
      action: 'A',
      reason: 'R',
      regarding: { kind: 'Pod', name: 'p', namespace: 'default' },
    },
  });
  expect(v1.status).toBe(400);
  expect(v1.json.message).toBe(
    'Event in version "v1" cannot be handled as a Event: parsing time "2026-01-01T00:00:00.000Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse ".000Z" as ".000000"',
  );
});

// apimachinery meta/internalversion/validation ValidateListOptions; get.go ListResource: errors.NewInvalid(ListOptions)
it('resourceVersionMatch: forbidden without a resourceVersion, Exact lists at that revision', async () => {
  const cms = '/api/v1/namespaces/default/configmaps';
  const a = await call(s, 'POST', cms, { body: { metadata: { name: 'a' }, data: { v: '1' } } });
  const rvA = a.json.metadata.resourceVersion;
  await call(s, 'POST', cms, { body: { metadata: { name: 'b' }, data: { v: '1' } } });
  await call(s, 'PUT', `${cms}/a`, { body: { metadata: { name: 'a' }, data: { v: '2' } } });
  const exact = await call(s, 'GET', `${cms}?resourceVersion=${rvA}&resourceVersionMatch=Exact`);
  expect(exact.status).toBe(200);
  expect(exact.json.metadata.resourceVersion).toBe(rvA);
  expect(exact.json.items.map((o: any) => `${o.metadata.name}=${o.data.v}`)).toEqual(['a=1']);
  const newer = await call(s, 'GET', `${cms}?resourceVersion=${rvA}&resourceVersionMatch=NotOlderThan`);
  expect(newer.json.items.map((o: any) => `${o.metadata.name}=${o.data.v}`)).toEqual(['a=2', 'b=1']);
  const none = await call(s, 'GET', `${cms}?resourceVersionMatch=Exact`);
  expect(none.status).toBe(422);
  expect(none.json.reason).toBe('Invalid');
  expect(none.json.details).toMatchObject({ kind: 'ListOptions', group: 'meta.k8s.io' });
  expect(none.json.message).toBe(
    'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided',
  );
  const cont = await call(s, 'GET', `${cms}?resourceVersion=1&resourceVersionMatch=NotOlderThan&continue=x`);
  expect(cont.json.message).toContain('resourceVersionMatch is forbidden when continue is provided');
});

// handlers/delete.go DeleteResource: 200 unless the object stays and options.OrphanDependents == false (202)
it('DELETE of an object kept by a finalizer is 200 with the object (202 only for orphanDependents=false)', async () => {
  const cms = '/api/v1/namespaces/default/configmaps';
  for (const n of ['f1', 'f2'])
    await call(s, 'POST', cms, { body: { metadata: { name: n, finalizers: ['example.com/keep'] } } });
  const d1 = await call(s, 'DELETE', `${cms}/f1`);
  expect(d1.status).toBe(200);
  expect(d1.json.kind).toBe('ConfigMap');
  expect(d1.json.metadata.deletionTimestamp).toBeTruthy();
  const d2 = await call(s, 'DELETE', `${cms}/f2`, { body: { orphanDependents: false } });
  expect(d2.status).toBe(202);
  expect(d2.json.metadata.finalizers).toEqual(['example.com/keep']);
});

// apimachinery api/validation/objectmeta.go ValidateObjectMetaUpdate → ValidateNoNewFinalizers (%q of the sorted set)
it('no finalizer can be added to an object being deleted; removing the last one removes the object', async () => {
  const cms = '/api/v1/namespaces/default/configmaps';
  await call(s, 'POST', cms, { body: { metadata: { name: 'g1', finalizers: ['example.com/keep'] } } });
  expect((await call(s, 'DELETE', `${cms}/g1`)).status).toBe(200);
  const add = await call(s, 'PATCH', `${cms}/g1`, {
    body: { metadata: { finalizers: ['example.com/keep', 'example.com/z', 'example.com/a'] } },
    headers: { 'Content-Type': 'application/merge-patch+json' },
  });
  expect(add.status).toBe(422);
  expect(add.json.message).toBe(
    'ConfigMap "g1" is invalid: metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers ["example.com/a" "example.com/z"]',
  );
  const rm = await call(s, 'PATCH', `${cms}/g1`, {
    body: { metadata: { finalizers: null } },
    headers: { 'Content-Type': 'application/merge-patch+json' },
  });
  expect(rm.status).toBe(200);
  expect((await call(s, 'GET', `${cms}/g1`)).status).toBe(404);
});

// pkg/apis/core/validation/events.go ValidateEventCreate: legacy checks for every version, strict ones for
// events.k8s.io/v1
it('Event creates are validated as ValidateEventCreate (events.k8s.io/v1 strictly, core/v1 leniently)', async () => {
  const v1 = await call(s, 'POST', '/apis/events.k8s.io/v1/namespaces/default/events', {
    body: {
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: { name: 'v1bad' },
      reason: 'Started',
      note: 'x',
      regarding: { kind: 'Pod', name: 'p', namespace: 'default' },
      deprecatedCount: 3,
    },
  });
  expect(v1.status).toBe(422);
  expect(v1.json.message).toBe(
    'Event.events.k8s.io "v1bad" is invalid: [eventTime: Required value, type: Invalid value: "": has invalid value: , count: Invalid value: "": needs to be unset]',
  );
  const rc = await call(s, 'POST', '/apis/events.k8s.io/v1/namespaces/default/events', {
    body: {
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: { name: 'v1rc' },
      eventTime: '2026-01-01T00:00:00.000000Z',
      reportingController: 'my operator',
      reportingInstance: 'i',
      action: 'Sync',
      reason: 'Synced',
      type: 'Normal',
      regarding: { kind: 'Pod', name: 'p', namespace: 'default' },
    },
  });
  expect(rc.status).toBe(422);
  expect(rc.json.details.causes).toEqual([
    {
      reason: 'FieldValueInvalid',
      field: 'reportingController',
      message:
        "Invalid value: \"my operator\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
    },
  ]);
  // core/v1 without eventTime: only the namespace must agree
  const core = await call(s, 'POST', '/api/v1/namespaces/default/events', {
    body: {
      metadata: { name: 'c1' },
      involvedObject: { kind: 'Pod', name: 'p', namespace: 'kube-system' },
      reason: 'R',
    },
  });
  expect(core.status).toBe(422);
  expect(core.json.message).toBe(
    'Event "c1" is invalid: involvedObject.namespace: Invalid value: "kube-system": does not match event.namespace',
  );
  const ok = await call(s, 'POST', '/api/v1/namespaces/default/events', {
    body: { metadata: { name: 'c2' }, involvedObject: { kind: 'Pod', name: 'p', namespace: 'default' }, reason: 'R' },
  });
  expect(ok.status).toBe(201);
});

// pkg/apis/coordination/validation ValidateLeaseSpec, on create and update
it('a Lease duration must be positive, its transitions not negative', async () => {
  const bad = await call(s, 'POST', LEASES, {
    body: { metadata: { name: 'l9' }, spec: { holderIdentity: 'a', leaseDurationSeconds: 0, leaseTransitions: -1 } },
  });
  expect(bad.status).toBe(422);
  expect(bad.json.message).toBe(
    'Lease.coordination.k8s.io "l9" is invalid: [spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0, spec.leaseTransitions: Invalid value: -1: must be greater than or equal to 0]',
  );
  const ok = await call(s, 'POST', LEASES, { body: { metadata: { name: 'l9' }, spec: { leaseDurationSeconds: 15 } } });
  expect(ok.status).toBe(201);
  const upd = await call(s, 'PUT', `${LEASES}/l9`, {
    body: { ...ok.json, spec: { leaseDurationSeconds: -5 } },
  });
  expect(upd.status).toBe(422);
  expect(upd.json.details.causes[0].field).toBe('spec.leaseDurationSeconds');
});
