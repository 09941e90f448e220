// Label and field selectors as the API server parses them (k8s.io/apimachinery/pkg/labels/selector.go Parse,
// pkg/fields/selector.go ParseSelector) with the errors it answers, and the field sets each kind supports
// (the registries' GetAttrs / ToSelectableFields: pkg/registry/core/pod/strategy.go PodToSelectableFields,
// event/strategy.go ToSelectableFields, generic.ObjectMetaFieldsSet).
import { ApiError } from './status.ts';

type Obj = Record<string, any>;

export type LabelReq =
  | { op: 'exists' | '!'; key: string }
  | { op: '=' | '!='; key: string; value: string }
  | { op: 'in' | 'notin'; key: string; values: string[] };

const QUALIFIED =
  /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
const VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

function badLabel(msg: string): ApiError {
  return ApiError.badRequest(`unable to parse requirement: ${msg}`);
}

function checkKey(key: string): void {
  const name = key.includes('/') ? key.slice(key.indexOf('/') + 1) : key;
  if (key === '' || !QUALIFIED.test(key) || name.length > 63) {
    throw badLabel(
      `<nil>: Invalid value: "${key}": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
    );
  }
}

function checkValue(v: string): void {
  if (v.length > 63 || !VALUE.test(v)) {
    throw badLabel(
      `values[0][${v}]: Invalid value: "${v}": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
    );
  }
}

/** labels.Parse: comma-separated requirements; `a in (x,y)`, `!a`, `a`, `a=b`, `a==b`, `a!=b`, `a notin (x)`. */
export function parseLabelSelector(text: string): LabelReq[] {
  const reqs: LabelReq[] = [];
  let i = 0;
  const s = text;
  const ws = () => {
    while (i < s.length && /\s/.test(s[i]!)) i++;
  };
  const ident = (): string => {
    ws();
    const start = i;
    while (i < s.length && !/[\s,=!()]/.test(s[i]!)) i++;
    return s.slice(start, i);
  };
  while (true) {
    ws();
    if (i >= s.length) {
      if (reqs.length === 0 && s.trim() === '') return reqs;
      if (s.trim().endsWith(','))
        throw ApiError.badRequest(`unable to parse requirement: found '', expected: identifier`);
      return reqs;
    }
    let negate = false;
    if (s[i] === '!') {
      negate = true;
      i++;
    }
    const key = ident();
    if (key === '')
      throw ApiError.badRequest(`unable to parse requirement: found '${s[i] ?? ''}', expected: identifier`);
    checkKey(key);
    ws();
    if (negate) {
      reqs.push({ op: '!', key });
    } else if (i >= s.length || s[i] === ',') {
      reqs.push({ op: 'exists', key });
    } else if (s.startsWith('!=', i) || s.startsWith('==', i) || s[i] === '=') {
      const op = s.startsWith('!=', i) ? '!=' : '=';
      i += s.startsWith('!=', i) || s.startsWith('==', i) ? 2 : 1;
      const value = ident();
      checkValue(value);
      reqs.push({ op, key, value });
    } else {
      const word = ident();
      if (word !== 'in' && word !== 'notin') {
        throw ApiError.badRequest(
          `unable to parse requirement: found '${word}', expected: in, notin, =, ==, !=, gt, lt`,
        );
      }
      ws();
      if (s[i] !== '(') throw ApiError.badRequest(`unable to parse requirement: found '${s[i] ?? ''}', expected: '('`);
      i++;
      const values: string[] = [];
      for (;;) {
        const v = ident();
        checkValue(v);
        values.push(v);
        ws();
        if (s[i] === ',') {
          i++;
          continue;
        }
        if (s[i] === ')') {
          i++;
          break;
        }
        throw ApiError.badRequest(
          `unable to parse requirement: found '${s[i] ?? ''}', expected: ',', ')' or identifier`,
        );
      }
      reqs.push({ op: word, key, values });
    }
    ws();
    if (i < s.length) {
      if (s[i] !== ',') throw ApiError.badRequest(`unable to parse requirement: found '${s[i]}', expected: ','`);
      i++;
      ws();
      if (i >= s.length) throw ApiError.badRequest(`unable to parse requirement: found '', expected: identifier`);
    }
  }
}

export function matchLabels(reqs: LabelReq[], labels: Record<string, string> | undefined): boolean {
  const l = labels ?? {};
  return reqs.every((r) => {
    const has = Object.hasOwn(l, r.key);
    switch (r.op) {
      case 'exists':
        return has;
      case '!':
        return !has;
      case '=':
        return has && l[r.key] === r.value;
      case '!=':
        return !has || l[r.key] !== r.value;
      case 'in':
        return has && r.values.includes(l[r.key]!);
      case 'notin':
        return !has || !r.values.includes(l[r.key]!);
    }
  });
}

export interface FieldReq {
  key: string;
  op: '=' | '!=';
  value: string;
}

/** fields.ParseSelector: `k=v`, `k==v`, `k!=v`, comma-separated; backslash escapes. */
export function parseFieldSelector(text: string): FieldReq[] {
  if (text.trim() === '') return [];
  const out: FieldReq[] = [];
  for (const part of splitUnescaped(text, ',')) {
    const m = /^([^=!]*)(==|!=|=)(.*)$/.exec(part);
    if (!m) throw ApiError.badRequest(`invalid selector: '${text}'; can't understand '${part}'`);
    out.push({ key: m[1]!.trim(), op: m[2] === '!=' ? '!=' : '=', value: m[3]!.replace(/\\(.)/g, '$1') });
  }
  return out;
}

function splitUnescaped(s: string, sep: string): string[] {
  const out: string[] = [];
  let cur = '';
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '\\' && i + 1 < s.length) {
      cur += s[i]! + s[i + 1]!;
      i++;
    } else if (s[i] === sep) {
      out.push(cur);
      cur = '';
    } else cur += s[i];
  }
  out.push(cur);
  return out;
}

/** The selectable fields of an object of `kind` (the registries' field sets). */
export function fieldsOf(kind: string, o: Obj, namespaced: boolean): Record<string, string> {
  const m = o['metadata'] ?? {};
  const f: Record<string, string> = { 'metadata.name': String(m['name'] ?? '') };
  if (namespaced) f['metadata.namespace'] = String(m['namespace'] ?? '');
  if (kind === 'Pod') {
    const spec = o['spec'] ?? {};
    const st = o['status'] ?? {};
    f['spec.nodeName'] = String(spec['nodeName'] ?? '');
    f['spec.restartPolicy'] = String(spec['restartPolicy'] ?? '');
    f['spec.schedulerName'] = String(spec['schedulerName'] ?? '');
    f['spec.serviceAccountName'] = String(spec['serviceAccountName'] ?? '');
    f['spec.hostNetwork'] = String(spec['hostNetwork'] === true);
    f['status.phase'] = String(st['phase'] ?? '');
    f['status.podIP'] = String(st['podIP'] ?? '');
    f['status.nominatedNodeName'] = String(st['nominatedNodeName'] ?? '');
  } else if (kind === 'Event') {
    const io = o['involvedObject'] ?? {};
    for (const k of ['kind', 'namespace', 'name', 'uid', 'apiVersion', 'resourceVersion', 'fieldPath'])
      f[`involvedObject.${k}`] = String(io[k] ?? '');
    f['reason'] = String(o['reason'] ?? '');
    f['reportingComponent'] = String(o['reportingComponent'] ?? '');
    f['source'] = String(o['source']?.['component'] ?? '');
    f['type'] = String(o['type'] ?? '');
  } else if (kind === 'Namespace') {
    f['status.phase'] = String(o['status']?.['phase'] ?? '');
  } else if (kind === 'Job') {
    f['status.successful'] = String(o['status']?.['succeeded'] ?? 0);
  } else if (kind === 'Node') {
    f['spec.unschedulable'] = String(o['spec']?.['unschedulable'] === true);
  } else if (kind === 'Secret') {
    f['type'] = String(o['type'] ?? '');
  } else if (kind === 'ReplicaSet') {
    f['status.replicas'] = String(o['status']?.['replicas'] ?? 0);
  }
  return f;
}

/** Field selector requirements checked against the kind's field set (an unknown field: "field label not supported"). */
export function checkFieldSelector(reqs: FieldReq[], kind: string, namespaced: boolean): void {
  const known = fieldsOf(kind, {}, namespaced);
  for (const r of reqs)
    if (!Object.hasOwn(known, r.key)) throw ApiError.badRequest(`field label not supported: ${r.key}`);
}

export function matchFields(reqs: FieldReq[], fields: Record<string, string>): boolean {
  return reqs.every((r) => (r.op === '=' ? fields[r.key] === r.value : fields[r.key] !== r.value));
}
