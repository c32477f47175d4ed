// Errors from the API as the UI shows them: the HTTP code and the Status reason, message and
// causes (e.g. FieldManagerConflict with the field path). Built from any failed response, so an
// error is never reduced to "request failed".
export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

export interface ApiErrorInfo {
  code: number;
  reason: string;
  message: string;
  causes: StatusCause[];
}

export class KubeApiError extends Error implements ApiErrorInfo {
  readonly code: number;
  readonly reason: string;
  readonly causes: StatusCause[];
  /** The parsed response body (usually a Status), for a raw view. */
  readonly body: unknown;

  constructor(info: ApiErrorInfo, body?: unknown) {
    super(info.message);
    this.name = 'KubeApiError';
    this.code = info.code;
    this.reason = info.reason;
    this.causes = info.causes;
    this.body = body;
  }

  toJSON(): ApiErrorInfo {
    return { code: this.code, reason: this.reason, message: this.message, causes: this.causes };
  }
}

interface StatusLike {
  kind?: string;
  code?: number;
  reason?: string;
  message?: string;
  details?: { causes?: StatusCause[] };
}

/** Turns a Status object (from a body or a watch ERROR event) into error info; httpStatus fills gaps. */
export function errorFromStatus(status: unknown, httpStatus: number, statusText = ''): ApiErrorInfo {
  const s = (status && typeof status === 'object' ? status : {}) as StatusLike;
  const code = typeof s.code === 'number' && s.code > 0 ? s.code : httpStatus;
  return {
    code,
    reason: s.reason ?? statusText,
    message: s.message ?? (statusText || `HTTP ${httpStatus}`),
    causes: Array.isArray(s.details?.causes) ? s.details.causes : [],
  };
}

/** Reads a failed response's body and builds the error; a non-JSON body becomes the message. */
export async function errorFromResponse(res: Response): Promise<KubeApiError> {
  const text = await res.text().catch(() => '');
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // a plain-text error (e.g. a proxy page): keep the text as the message
  }
  if (body && typeof body === 'object') return new KubeApiError(errorFromStatus(body, res.status, res.statusText), body);
  return new KubeApiError({ code: res.status, reason: res.statusText, message: text.trim() || res.statusText || `HTTP ${res.status}`, causes: [] }, body);
}

/** Any thrown value as error info, for panels that show errors (network failures have code 0). */
export function describeError(e: unknown): ApiErrorInfo {
  if (e instanceof KubeApiError) return e.toJSON();
  const message = e instanceof Error ? e.message : String(e);
  return { code: 0, reason: 'NetworkError', message, causes: [] };
}
