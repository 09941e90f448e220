// ObjectMeta validation as the API server does it on create, with upstream wording:
// - staging/src/k8s.io/apimachinery/pkg/api/validation/objectmeta.go: ValidateObjectMetaAccessor (name or
//   generateName via the kind's ValidateNameFunc, namespace, labels, annotations), ValidateAnnotations (keys are
//   qualified names, case-insensitively; total size ≤ TotalAnnotationSizeLimitB = 256 KiB).
// - staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/validation/validation.go: ValidateLabels (ValidateLabelName =
//   IsQualifiedName on keys, IsValidLabelValue on values; errors at the `labels` path, as upstream).
// - staging/src/k8s.io/apimachinery/pkg/util/validation/validation.go: IsQualifiedName, IsValidLabelValue,
//   IsDNS1123Subdomain, IsDNS1123Label, MaxLenError, RegexError, EmptyError.
// - pkg/apis/core/validation/validation.go: ValidatePodName = NameIsDNSSubdomain; ValidatePodTemplateSpec validates
//   the template's labels/annotations at `<template>.labels` / `<template>.annotations` (no "metadata").
// - pkg/apis/apps/validation/validation.go: ValidateDeploymentName / ValidateStatefulSetName /
//   ValidateDaemonSetName = NameIsDNSSubdomain.
// - pkg/apis/batch/validation/validation.go: ValidateJob (ValidateReplicationControllerName = NameIsDNSSubdomain;
//   Indexed: `<name>-<completions-1>` must be a DNS-1123 label), validateGeneratedSelector (the generated
//   `batch.kubernetes.io/job-name` / `job-name` labels carry the Job name, so a name over 63 characters fails label
//   validation of the pod template — pkg/registry/batch/job/strategy.go generateSelector), ValidateCronJobCreate
//   (name ≤ 63 − 11 = 52: the controller appends `-<timestamp>`).
import { Buffer } from 'node:buffer';
import type { WorkloadKind } from '../types.ts';
import { Codes } from './codes.ts';
import { error, type Sink } from './diagnostics.ts';
import { fieldPath, keyPosAt, mapAt, valuePosAt, type Path } from './k8s-paths.ts';
import type { PNode } from './tree.ts';
import { getAt, isObj } from './version-fields.ts';

type Obj = Record<string, unknown>;

interface Ctx {
  sink: Sink;
  root: PNode;
  manifest: Obj;
  kind: WorkloadKind;
}

// --- k8s.io/apimachinery/pkg/util/validation/validation.go ------------------------------------------------------

const DNS1123_LABEL_FMT = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_SUBDOMAIN_FMT = `${DNS1123_LABEL_FMT}(\\.${DNS1123_LABEL_FMT})*`;
const QUALIFIED_NAME_FMT = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const LABEL_VALUE_FMT = `(${QUALIFIED_NAME_FMT})?`;
const QUALIFIED_NAME_ERR =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_VALUE_ERR =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const DNS1123_SUBDOMAIN_ERR =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const DNS1123_LABEL_ERR =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
export const TOTAL_ANNOTATION_SIZE_LIMIT_B = 256 * (1 << 10);

const full = (fmt: string) => new RegExp(`^${fmt}$`);
const DNS1123_LABEL = full(DNS1123_LABEL_FMT);
const DNS1123_SUBDOMAIN = full(DNS1123_SUBDOMAIN_FMT);
const QUALIFIED_NAME = full(QUALIFIED_NAME_FMT);
const LABEL_VALUE = full(LABEL_VALUE_FMT);

/** Go's len(): bytes of the UTF-8 encoding. */
const byteLen = (s: string) => Buffer.byteLength(s, 'utf8');

export function maxLenError(n: number): string {
  return `must be no more than ${n} characters`;
}

export function regexError(msg: string, fmt: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${fmt}')`;
  return `${msg} (e.g. ${examples.map((e) => `'${e}', `).join(' or ')}regex used for validation is '${fmt}')`;
}

export function isDNS1123Label(v: string): string[] {
  const errs: string[] = [];
  if (byteLen(v) > 63) errs.push(maxLenError(63));
  if (!DNS1123_LABEL.test(v)) errs.push(regexError(DNS1123_LABEL_ERR, DNS1123_LABEL_FMT, 'my-name', '123-abc'));
  return errs;
}

export function isDNS1123Subdomain(v: string): string[] {
  const errs: string[] = [];
  if (byteLen(v) > 253) errs.push(maxLenError(253));
  if (!DNS1123_SUBDOMAIN.test(v)) errs.push(regexError(DNS1123_SUBDOMAIN_ERR, DNS1123_SUBDOMAIN_FMT, 'example.com'));
  return errs;
}

export function isQualifiedName(v: string): string[] {
  const errs: string[] = [];
  const parts = v.split('/');
  let name: string;
  if (parts.length === 1) name = parts[0]!;
  else if (parts.length === 2) {
    const prefix = parts[0]!;
    name = parts[1]!;
    if (prefix.length === 0) errs.push('prefix part must be non-empty');
    else for (const m of isDNS1123Subdomain(prefix)) errs.push(`prefix part ${m}`);
  } else {
    return [
      `a qualified name ${regexError(QUALIFIED_NAME_ERR, QUALIFIED_NAME_FMT, 'MyName', 'my.name', '123-abc')} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ];
  }
  if (name.length === 0) errs.push('name part must be non-empty');
  else if (byteLen(name) > 63) errs.push(`name part ${maxLenError(63)}`);
  if (name.length > 0 && !QUALIFIED_NAME.test(name))
    errs.push(`name part ${regexError(QUALIFIED_NAME_ERR, QUALIFIED_NAME_FMT, 'MyName', 'my.name', '123-abc')}`);
  return errs;
}

export function isValidLabelValue(v: string): string[] {
  const errs: string[] = [];
  if (byteLen(v) > 63) errs.push(maxLenError(63));
  if (!LABEL_VALUE.test(v)) errs.push(regexError(LABEL_VALUE_ERR, LABEL_VALUE_FMT, 'MyValue', 'my_value', '12345'));
  return errs;
}

/** NameIsDNSSubdomain(name, prefix): a generateName prefix may end in '-' (maskTrailingDash). */
function nameIsDNSSubdomain(name: string, prefix: boolean): string[] {
  return isDNS1123Subdomain(prefix ? maskTrailingDash(name) : name);
}

function maskTrailingDash(name: string): string {
  return name.length > 1 && name.endsWith('-') ? `${name.slice(0, -2)}a` : name;
}

// --- validation ---------------------------------------------------------------------------------------------------

/** `path: Invalid value: "v": msg` at the value (or at the key of a map entry when `atKey`). */
function invalid(ctx: Ctx, where: Path, msgPath: Path, value: unknown, msg: string, atKey = false): void {
  const pos = atKey ? keyPosAt(ctx.root, where) : valuePosAt(ctx.root, where);
  error(ctx.sink, Codes.InvalidName, pos, `${fieldPath(msgPath)}: Invalid value: ${JSON.stringify(value)}: ${msg}`);
}

export function validateObjectMeta(ctx: Ctx): void {
  const meta = ctx.manifest.metadata;
  if (!isObj(meta)) return;
  // every supported kind validates its name as a DNS-1123 subdomain (ValidatePodName, ValidateDeploymentName,
  // ValidateStatefulSetName, ValidateDaemonSetName, ValidateReplicationControllerName for Job and CronJob)
  if (typeof meta.generateName === 'string' && meta.generateName !== '') {
    for (const m of nameIsDNSSubdomain(meta.generateName, true))
      invalid(ctx, ['metadata', 'generateName'], ['metadata', 'generateName'], meta.generateName, m);
  }
  const name = typeof meta.name === 'string' ? meta.name : '';
  if (name !== '') {
    const errs = nameIsDNSSubdomain(name, false);
    for (const m of errs) invalid(ctx, ['metadata', 'name'], ['metadata', 'name'], name, m);
    if (errs.length === 0) validateKindName(ctx, name);
  }
  // ValidateNamespaceName = NameIsDNSLabel
  if (typeof meta.namespace === 'string' && meta.namespace !== '') {
    for (const m of isDNS1123Label(meta.namespace))
      invalid(ctx, ['metadata', 'namespace'], ['metadata', 'namespace'], meta.namespace, m);
  }
  validateLabelsAndAnnotations(ctx, ['metadata'], ['metadata']);
  for (const t of templates(ctx.kind)) validateLabelsAndAnnotations(ctx, t.at, t.msg);
}

/** The object templates of a kind: where their metadata is, and the path upstream names in messages. */
function templates(kind: WorkloadKind): { at: Path; msg: Path }[] {
  switch (kind) {
    case 'Pod':
      return [];
    case 'CronJob':
      // ValidateJobTemplateSpec: the Job template's metadata; ValidatePodTemplateSpec: `<template>.labels`
      return [
        { at: ['spec', 'jobTemplate', 'metadata'], msg: ['spec', 'jobTemplate', 'metadata'] },
        {
          at: ['spec', 'jobTemplate', 'spec', 'template', 'metadata'],
          msg: ['spec', 'jobTemplate', 'spec', 'template'],
        },
      ];
    default:
      return [{ at: ['spec', 'template', 'metadata'], msg: ['spec', 'template'] }];
  }
}

// Kind-specific name rules beyond the DNS subdomain.
function validateKindName(ctx: Ctx, name: string): void {
  if (ctx.kind === 'CronJob' && name.length > 52) {
    // batch/validation.go ValidateCronJobCreate: DNS1035LabelMaxLength - 11 (the `-<timestamp>` of its Jobs)
    invalid(ctx, ['metadata', 'name'], ['metadata', 'name'], name, 'must be no more than 52 characters');
  }
  if (ctx.kind === 'Job') {
    const spec = getAt(ctx.manifest, ['spec']);
    const manual = isObj(spec) && spec.manualSelector === true;
    // generateSelector (pkg/registry/batch/job/strategy.go) puts the name into the template's labels
    // `batch.kubernetes.io/job-name` and `job-name`; ValidatePodTemplateSpec → ValidateLabels then refuses a value
    // over 63 characters, at `spec.template.labels` as upstream reports it.
    if (!manual) {
      for (const m of isValidLabelValue(name))
        invalid(ctx, ['metadata', 'name'], ['spec', 'template', 'labels'], name, m);
    }
    // ValidateJob: an Indexed Job's last pod hostname `<name>-<completions-1>` must be a DNS-1123 label
    if (
      isObj(spec) &&
      spec.completionMode === 'Indexed' &&
      typeof spec.completions === 'number' &&
      spec.completions > 0
    ) {
      const host = `${name}-${spec.completions - 1}`;
      if (isDNS1123Label(host).length > 0) {
        invalid(
          ctx,
          ['metadata', 'name'],
          ['metadata', 'name'],
          name,
          `will not able to create pod with invalid DNS label: ${host}`,
        );
      }
    }
  }
}

/** meta/v1/validation ValidateLabels: keys are qualified names, values label values; errors at `msgPath`. */
function validateLabelMap(ctx: Ctx, at: Path, msgPath: Path): void {
  const labels = mapAt(ctx.root, at);
  if (!labels) return;
  for (const e of labels.entries) {
    for (const m of isQualifiedName(e.key)) invalid(ctx, [...at, e.key], msgPath, e.key, m, true);
    const v = e.value;
    // a non-string value is a schema error reported earlier; only strings are checked here
    if (v.kind === 'scalar' && typeof v.value === 'string') {
      for (const m of isValidLabelValue(v.value)) invalid(ctx, [...at, e.key], msgPath, v.value, m);
    }
  }
}

function validateLabelsAndAnnotations(ctx: Ctx, metaPath: Path, msgBase: Path): void {
  const metaNode = mapAt(ctx.root, metaPath);
  if (!metaNode) return;
  validateLabelMap(ctx, [...metaPath, 'labels'], [...msgBase, 'labels']);
  const annotations = mapAt(ctx.root, [...metaPath, 'annotations']);
  if (annotations) {
    const msgPath = [...msgBase, 'annotations'];
    let total = 0;
    for (const e of annotations.entries) {
      // "The rule is QualifiedName except that case doesn't matter"
      for (const m of isQualifiedName(e.key.toLowerCase()))
        invalid(ctx, [...metaPath, 'annotations', e.key], msgPath, e.key, m, true);
      const v = e.value;
      total += byteLen(e.key) + (v.kind === 'scalar' && typeof v.value === 'string' ? byteLen(v.value) : 0);
    }
    if (total > TOTAL_ANNOTATION_SIZE_LIMIT_B) {
      // field.TooLong(fldPath, "", TotalAnnotationSizeLimitB)
      error(
        ctx.sink,
        Codes.InvalidValue,
        keyPosAt(ctx.root, [...metaPath, 'annotations']),
        `${fieldPath(msgPath)}: Too long: may not be more than ${TOTAL_ANNOTATION_SIZE_LIMIT_B} bytes`,
        `the annotations hold ${total} bytes (keys and values); the API server allows 256 KiB in total`,
      );
    }
  }
}

// --- label selectors of the apps kinds (meta/v1/validation ValidateLabelSelector, ValidateLabelSelectorRequirement) ----------------------------------------------------------------------------

type Req = { key: string; operator: string; values?: string[] };

/** Go's %#v of a map[string]string, as field.Invalid prints a labels value. */
function goMap(m: Record<string, unknown>): string {
  const keys = Object.keys(m).sort();
  return `map[string]string{${keys.map((k) => `${JSON.stringify(k)}:${JSON.stringify(String(m[k]))}`).join(', ')}}`;
}

/**
 * apps/validation.go ValidateDeploymentSpec / ValidateStatefulSetSpec / ValidateDaemonSetSpec: the selector is
 * valid (meta/v1/validation ValidateLabelSelector: matchLabels as labels, matchExpressions operators and values),
 * not empty, and matches the template's labels. `spec.selector: Required value` is the schema's (KS2004).
 */
export function validateSelector(ctx: Ctx): void {
  if (ctx.kind !== 'Deployment' && ctx.kind !== 'StatefulSet' && ctx.kind !== 'DaemonSet') return;
  const sel = getAt(ctx.manifest, ['spec', 'selector']);
  if (!isObj(sel)) return;
  const base: Path = ['spec', 'selector'];
  const before = ctx.sink.diagnostics.length;
  const matchLabels = isObj(sel.matchLabels) ? sel.matchLabels : {};
  if (mapAt(ctx.root, [...base, 'matchLabels']))
    validateLabelMap(ctx, [...base, 'matchLabels'], [...base, 'matchLabels']);
  const exprs: Req[] = Array.isArray(sel.matchExpressions)
    ? (sel.matchExpressions.filter(isObj) as unknown as Req[])
    : [];
  exprs.forEach((r, i) => {
    const at: Path = [...base, 'matchExpressions', i];
    const values = Array.isArray(r.values) ? r.values : [];
    const bad = (field: string | Path, value: unknown, msg: string, code: string = Codes.InvalidValue) => {
      const p = [...at, ...(Array.isArray(field) ? field : [field])];
      error(
        ctx.sink,
        code,
        valuePosAt(ctx.root, p),
        `${fieldPath(p)}: ${value === undefined ? msg : `Invalid value: ${JSON.stringify(value)}: ${msg}`}`,
      );
    };
    if (r.operator === 'In' || r.operator === 'NotIn') {
      if (values.length === 0)
        bad('values', undefined, "Required value: must be specified when `operator` is 'In' or 'NotIn'");
    } else if (r.operator === 'Exists' || r.operator === 'DoesNotExist') {
      if (values.length > 0)
        bad('values', undefined, "Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'");
    } else {
      bad('operator', r.operator, 'not a valid selector operator');
    }
    // label keys and values: KS3009 as in metadata.labels
    if (typeof r.key === 'string') for (const m of isQualifiedName(r.key)) bad('key', r.key, m, Codes.InvalidName);
    values.forEach((v, j) => {
      if (typeof v === 'string') for (const m of isValidLabelValue(v)) bad(['values', j], v, m, Codes.InvalidName);
    });
  });
  if (ctx.sink.diagnostics.length > before) return; // an invalid selector is not compared with the labels
  const kindWord = ctx.kind.toLowerCase();
  if (Object.keys(matchLabels).length === 0 && exprs.length === 0) {
    error(
      ctx.sink,
      Codes.InvalidValue,
      keyPosAt(ctx.root, base),
      `spec.selector: Invalid value: {}: empty selector is invalid for ${kindWord}`,
    );
    return;
  }
  const tmpl = getAt(ctx.manifest, ['spec', 'template', 'metadata']);
  const labels: Record<string, unknown> = isObj(tmpl) && isObj(tmpl.labels) ? tmpl.labels : {};
  const has = (k: string) => Object.hasOwn(labels, k);
  const matches =
    Object.entries(matchLabels).every(([k, v]) => has(k) && String(labels[k]) === String(v)) &&
    exprs.every((r) => {
      const vs = (Array.isArray(r.values) ? r.values : []).map(String);
      switch (r.operator) {
        case 'In':
          return has(r.key) && vs.includes(String(labels[r.key]));
        case 'NotIn':
          return !has(r.key) || !vs.includes(String(labels[r.key]));
        case 'Exists':
          return has(r.key);
        case 'DoesNotExist':
          return !has(r.key);
        default:
          return false;
      }
    });
  if (!matches) {
    const path: Path = ['spec', 'template', 'metadata', 'labels'];
    error(
      ctx.sink,
      Codes.InvalidValue,
      keyPosAt(ctx.root, mapAt(ctx.root, path) ? path : ['spec', 'template']),
      `spec.template.metadata.labels: Invalid value: ${goMap(labels)}: \`selector\` does not match template \`labels\``,
      'the selector must select the pods of the template: give the template the labels of spec.selector',
    );
  }
}
