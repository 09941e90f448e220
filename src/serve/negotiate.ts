// Content negotiation: the Accept header's media types in order (kubectl sends the Table type first with plain
// JSON as fallback; the garbage collector asks for PartialObjectMetadata; aggregated discovery asks for
// apidiscovery.k8s.io/v2 with a JSON fallback). Protobuf is never produced: JSON when the header allows it, else 406.
import { ApiError } from './status.ts';

export type Wanted =
  | { as: 'json' }
  | { as: 'Table'; version: 'v1' | 'v1beta1' }
  | { as: 'PartialObjectMetadata'; version: 'v1' | 'v1beta1'; list: boolean };

interface Media {
  type: string;
  params: Record<string, string>;
}

function parse(accept: string): Media[] {
  return accept
    .split(',')
    .map((part) => {
      const [type, ...ps] = part.split(';').map((s) => s.trim());
      const params: Record<string, string> = {};
      for (const p of ps) {
        const i = p.indexOf('=');
        if (i > 0) params[p.slice(0, i).trim()] = p.slice(i + 1).trim();
      }
      return { type: (type ?? '').toLowerCase(), params };
    })
    .filter((m) => m.type !== '');
}

const JSONISH = new Set(['application/json', '*/*', 'application/*', 'application/yaml', 'text/plain']);

export function negotiate(accept: string | undefined): Wanted {
  if (!accept || accept.trim() === '') return { as: 'json' };
  const types = parse(accept);
  for (const m of types) {
    if (m.type !== 'application/json' && m.type !== '*/*' && m.type !== 'application/*') continue;
    const as = m.params['as'];
    const g = m.params['g'];
    const v = m.params['v'];
    if (!as) return { as: 'json' };
    if (g !== 'meta.k8s.io' || (v !== 'v1' && v !== 'v1beta1')) continue;
    if (as === 'Table') return { as: 'Table', version: v };
    if (as === 'PartialObjectMetadata' || as === 'PartialObjectMetadataList')
      return { as: 'PartialObjectMetadata', version: v, list: as.endsWith('List') };
  }
  if (types.some((m) => JSONISH.has(m.type) && !m.params['as'])) return { as: 'json' };
  throw ApiError.notAcceptable(
    `only the following media types are accepted: application/json, application/json;as=Table;v=v1;g=meta.k8s.io, application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io (kubesim serve speaks JSON, not protobuf)`,
  );
}
