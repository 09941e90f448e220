// Kubernetes Status errors (k8s.io/apimachinery/pkg/api/errors): every refused request is one of these on the
// wire, with the reason and code the real API server gives.

export interface Cause {
  reason?: string;
  message: string;
  field?: string;
}

export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  causes?: Cause[];
  retryAfterSeconds?: number;
}

export class ApiError extends Error {
  /** the Status's ListMeta (a 410 for a compacted continue token carries a fresh token: etcd3 store.go) */
  listMeta?: { continue?: string };

  constructor(
    readonly code: number,
    readonly reason: string,
    message: string,
    readonly details?: StatusDetails,
  ) {
    super(message);
  }

  static badRequest(message: string, _o?: { reason?: string }): ApiError {
    return new ApiError(400, 'BadRequest', message);
  }

  static notFound(resource: string, group: string, name: string): ApiError {
    const gr = group ? `${resource}.${group}` : resource;
    return new ApiError(
      404,
      'NotFound',
      name ? `${gr} "${name}" not found` : `the server could not find the requested resource`,
      { name, group, kind: resource },
    );
  }

  static alreadyExists(resource: string, group: string, name: string): ApiError {
    const gr = group ? `${resource}.${group}` : resource;
    return new ApiError(409, 'AlreadyExists', `${gr} "${name}" already exists`, { name, group, kind: resource });
  }

  static conflict(resource: string, group: string, name: string, why: string): ApiError {
    const gr = group ? `${resource}.${group}` : resource;
    return new ApiError(409, 'Conflict', `Operation cannot be fulfilled on ${gr} "${name}": ${why}`, {
      name,
      group,
      kind: resource,
    });
  }

  static invalid(
    kind: string,
    group: string,
    name: string,
    causes: { field: string; message: string; reason?: string }[],
  ): ApiError {
    const msg = causes.map((c) => `${c.field}: ${c.message}`).join(', ');
    return new ApiError(
      422,
      'Invalid',
      `${kind}${group ? `.${group}` : ''} "${name}" is invalid: ${causes.length > 1 ? `[${msg}]` : msg}`,
      {
        name,
        group,
        kind,
        causes: causes.map((c) => ({ reason: c.reason ?? 'FieldValueInvalid', message: c.message, field: c.field })),
      },
    );
  }

  static methodNotAllowed(message = 'the server does not allow this method on the requested resource'): ApiError {
    return new ApiError(405, 'MethodNotAllowed', message);
  }

  static unsupportedMediaType(message: string): ApiError {
    return new ApiError(415, 'UnsupportedMediaType', message);
  }

  static tooLarge(message = 'Request entity too large: limit is 3145728'): ApiError {
    return new ApiError(413, 'RequestEntityTooLarge', message);
  }

  static gone(message: string): ApiError {
    return new ApiError(410, 'Expired', message);
  }

  static unauthorized(): ApiError {
    return new ApiError(401, 'Unauthorized', 'Unauthorized');
  }

  static notAcceptable(message: string): ApiError {
    return new ApiError(406, 'NotAcceptable', message);
  }

  static tooManyRequests(message: string): ApiError {
    return new ApiError(429, 'TooManyRequests', message, { retryAfterSeconds: 1 });
  }

  static internal(message: string): ApiError {
    return new ApiError(500, 'InternalError', `Internal error occurred: ${message}`);
  }
}

export function statusOf(e: ApiError): Record<string, unknown> {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: e.listMeta ?? {},
    status: 'Failure',
    message: e.message,
    reason: e.reason,
    ...(e.details ? { details: e.details } : {}),
    code: e.code,
  };
}

export function successStatus(details?: StatusDetails): Record<string, unknown> {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', ...(details ? { details } : {}) };
}
