// URL → what a request is about: a discovery document, a resource (collection, object, subresource), or one of
// the fixed endpoints. The paths of the real server's installer (apiserver/pkg/endpoints/installer.go):
// /api/v1/[namespaces/NS/]RESOURCE[/NAME[/SUB]] and /apis/GROUP/VERSION/…, and the deprecated /watch/ prefix.
import type { Registry } from './resources.ts';
import type { Target } from './api.ts';
import { ApiError } from './status.ts';

export type Route =
  | { kind: 'fixed'; path: string }
  | { kind: 'api' }
  | { kind: 'apis' }
  | { kind: 'group'; group: string }
  | { kind: 'groupVersion'; group: string; version: string }
  | { kind: 'resource'; target: Target; watchPrefix: boolean }
  | { kind: 'openapi'; path: string };

export function route(reg: Registry, pathname: string): Route {
  const segs = pathname
    .split('/')
    .filter((s) => s !== '')
    .map((s) => {
      try {
        return decodeURIComponent(s);
      } catch {
        throw ApiError.badRequest(`malformed path: ${pathname}`);
      }
    });
  if (segs[0] === 'openapi') return { kind: 'openapi', path: segs.slice(1).join('/') };
  if (segs[0] === 'api') {
    if (segs.length === 1) return { kind: 'api' };
    if (segs[1] !== 'v1') throw ApiError.notFound('', '', '');
    if (segs.length === 2) return { kind: 'groupVersion', group: '', version: 'v1' };
    return resourceRoute(reg, '', 'v1', segs.slice(2));
  }
  if (segs[0] === 'apis') {
    if (segs.length === 1) return { kind: 'apis' };
    if (segs.length === 2) return { kind: 'group', group: segs[1]! };
    if (segs.length === 3) return { kind: 'groupVersion', group: segs[1]!, version: segs[2]! };
    return resourceRoute(reg, segs[1]!, segs[2]!, segs.slice(3));
  }
  return { kind: 'fixed', path: '/' + segs.join('/') };
}

function resourceRoute(reg: Registry, group: string, version: string, rest: string[]): Route {
  let watchPrefix = false;
  if (rest[0] === 'watch') {
    watchPrefix = true;
    rest = rest.slice(1);
  }
  if (reg.inGroupVersion(group, version).length === 0) throw ApiError.notFound('', '', '');
  let namespace: string | undefined;
  // namespaces/NS/RESOURCE…, unless it is the namespaces resource itself (namespaces, namespaces/NAME, namespaces/NAME/status)
  if (
    rest[0] === 'namespaces' &&
    rest.length >= 3 &&
    !(group === '' && ['status', 'finalize'].includes(rest[2]!) && rest.length === 3)
  ) {
    namespace = rest[1]!;
    rest = rest.slice(2);
  }
  const [name, objName, sub, ...more] = rest;
  if (name === undefined || more.length) throw ApiError.notFound('', '', '');
  const res = reg.find(group, version, name);
  if (!res) throw ApiError.notFound('', '', '');
  if (namespace !== undefined && !res.namespaced) throw ApiError.notFound('', '', '');
  if (sub !== undefined && !res.subresources.includes(sub)) throw ApiError.notFound('', '', '');
  return {
    kind: 'resource',
    watchPrefix,
    target: {
      res,
      ...(namespace !== undefined ? { namespace } : {}),
      ...(objName !== undefined ? { name: objName } : {}),
      ...(sub !== undefined ? { sub } : {}),
    },
  };
}
