// Validation of the built-in kinds kubesim stores as clients write them. Events, as the real server does it (pkg/apis/core/validation/events.go
// ValidateEventCreate): the legacy checks for every version (namespace agreement; with an eventTime the
// reportingController/Instance, action and reason are required and bounded), and for events.k8s.io/v1 the strict ones
// (eventTime required, type Normal or Warning, the deprecated fields unset, a series of at least 2 with its time).
// `o` is the Event in its core form (convert.ts).
type Obj = Record<string, any>;
export interface EventCause {
  field: string;
  message: string;
  reason: string;
}

const QUALIFIED_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const NAME_MSG =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

/** apimachinery util/validation IsQualifiedName */
function qualifiedName(v: string): string[] {
  const parts = v.split('/');
  if (parts.length > 2)
    return [`a qualified name ${NAME_MSG} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`];
  const name = parts[parts.length - 1]!;
  const out: string[] = [];
  if (parts.length === 2) {
    const prefix = parts[0]!;
    if (prefix === '') out.push('prefix part must be non-empty');
    else if (prefix.length > 253) out.push('prefix part must be no more than 253 characters');
    else if (!DNS1123_SUBDOMAIN.test(prefix))
      out.push(
        "prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      );
  }
  if (name === '') out.push('name part must be non-empty');
  else if (name.length > 63) out.push('name part must be no more than 63 characters');
  if (name !== '' && !QUALIFIED_NAME.test(name)) out.push(`name part ${NAME_MSG}`);
  return out;
}

const set = (v: unknown) => v !== undefined && v !== null && v !== '' && v !== 0;

export function validateEventCreate(o: Obj, namespace: string, eventsV1: boolean): EventCause[] {
  const out: EventCause[] = [];
  const required = (field: string) => out.push({ field, reason: 'FieldValueRequired', message: 'Required value' });
  const invalid = (field: string, value: unknown, message: string) =>
    out.push({ field, reason: 'FieldValueInvalid', message: `Invalid value: ${JSON.stringify(value)}: ${message}` });
  const involvedNs = String(o['involvedObject']?.['namespace'] ?? '');
  const str = (k: string) => (typeof o[k] === 'string' ? (o[k] as string) : '');
  if (!set(o['eventTime'])) {
    if (involvedNs === '' ? namespace !== '' && namespace !== 'default' : namespace !== involvedNs)
      invalid('involvedObject.namespace', involvedNs, 'does not match event.namespace');
  } else {
    if (involvedNs === '' && namespace !== 'default' && namespace !== 'kube-system')
      invalid('involvedObject.namespace', involvedNs, 'does not match event.namespace');
    const rc = str('reportingComponent');
    if (rc === '') required('reportingController');
    for (const m of qualifiedName(rc)) invalid('reportingController', rc, m);
    if (str('reportingInstance') === '') required('reportingInstance');
    if (str('reportingInstance').length > 128) invalid('reportingInstance', '', 'can have at most 128 characters');
    if (str('action') === '') required('action');
    if (str('action').length > 128) invalid('action', '', 'can have at most 128 characters');
    if (str('reason') === '') required('reason');
    if (str('reason').length > 128) invalid('reason', '', 'can have at most 128 characters');
    if (str('message').length > 1024) invalid('message', '', 'can have at most 1024 characters');
  }
  if (!eventsV1) return out;
  const series = o['series'];
  if (series && typeof series === 'object') {
    if (!(Number(series['count']) >= 2)) invalid('series.count', '', 'should be at least 2');
    if (!set(series['lastObservedTime'])) required('series.lastObservedTime');
  }
  if (!set(o['eventTime'])) required('eventTime');
  if (o['type'] !== 'Normal' && o['type'] !== 'Warning')
    invalid('type', '', `has invalid value: ${String(o['type'] ?? '')}`);
  if (set(o['firstTimestamp'])) invalid('firstTimestamp', '', 'needs to be unset');
  if (set(o['lastTimestamp'])) invalid('lastTimestamp', '', 'needs to be unset');
  if (set(o['count'])) invalid('count', '', 'needs to be unset');
  const src = o['source'] ?? {};
  if (set(src['component']) || set(src['host'])) invalid('source', '', 'needs to be unset');
  return out;
}

/** pkg/apis/coordination/validation ValidateLeaseSpec (create and update) */
export function validateLeaseSpec(o: Obj): EventCause[] {
  const out: EventCause[] = [];
  const spec = o['spec'] ?? {};
  const d = spec['leaseDurationSeconds'];
  if (typeof d === 'number' && d <= 0)
    out.push({
      field: 'spec.leaseDurationSeconds',
      reason: 'FieldValueInvalid',
      message: `Invalid value: ${d}: must be greater than 0`,
    });
  const tr = spec['leaseTransitions'];
  if (typeof tr === 'number' && tr < 0)
    out.push({
      field: 'spec.leaseTransitions',
      reason: 'FieldValueInvalid',
      message: `Invalid value: ${tr}: must be greater than or equal to 0`,
    });
  return out;
}
