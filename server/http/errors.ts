// One error type for every service: routes and hub methods turn it into {"Error": ...}.

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const badRequest = (m: string) => new HttpError(400, m);
export const unauthorized = (m = 'You are not signed in.') => new HttpError(401, m);
export const forbidden = (m: string, headers?: Record<string, string>) => new HttpError(403, m, headers);
export const notFound = (m: string) => new HttpError(404, m);
export const conflict = (m: string) => new HttpError(409, m);
export const tooManyRequests = (m: string, retryAfterSeconds: number) =>
  new HttpError(429, m, { 'retry-after': String(retryAfterSeconds) });
