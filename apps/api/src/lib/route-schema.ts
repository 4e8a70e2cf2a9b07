import { errorResponse } from '@paineis/contract/fields';

type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 429 | 502 | 503 | 504;

/** The error answers a route can give, all of the one shape `{ message }`, for its OpenAPI document. */
export function errorResponses<const S extends ErrorStatus>(...statuses: S[]) {
  return Object.fromEntries([401, ...statuses].map((s) => [s, errorResponse])) as Record<S | 401, typeof errorResponse>;
}
