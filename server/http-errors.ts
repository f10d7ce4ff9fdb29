/** An error whose status and detail are safe to send to the client as `{"detail": …}`. */
export class HttpError extends Error {
  readonly statusCode: number;
  readonly detail: string;

  constructor(statusCode: number, detail: string) {
    super(detail);
    this.statusCode = statusCode;
    this.detail = detail;
    this.name = 'HttpError';
  }
}

/** 400: the request itself is wrong. */
export const badRequest = (detail: string) => new HttpError(400, detail);
/** 401: no token, or one that is unknown, expired or revoked. */
export const unauthorized = (detail = 'Not authenticated') => new HttpError(401, detail);
/** 403: known caller, not allowed. */
export const forbidden = (detail: string) => new HttpError(403, detail);
/** 404: absent, or belonging to someone else. */
export const notFound = (detail = 'Not found') => new HttpError(404, detail);
/** 409: conflicts with the current state. */
export const conflict = (detail: string) => new HttpError(409, detail);
/** 413: larger than allowed. */
export const tooLarge = (detail: string) => new HttpError(413, detail);
/** 415: a type the product does not accept. */
export const unsupportedType = (detail: string) => new HttpError(415, detail);
/** 422: understood but cannot be processed (a damaged file, a decompression bomb). */
export const unprocessable = (detail: string) => new HttpError(422, detail);
/** 429: too many attempts. */
export const tooManyRequests = (detail: string) => new HttpError(429, detail);
