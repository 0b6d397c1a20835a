import { errorCodeFor, VALIDATION_FAILED, type ErrorCode } from '../contracts/errorCodes.ts';

export type FieldError = { path: string; message: string; code?: string };

/**
 * A domain error carries the HTTP status it maps to and a stable `code` (given, else the catalog's
 * for its message, else the generic one of its status); the server's single error handler reads them.
 */
export abstract class DomainError extends Error {
  abstract readonly statusCode: number;
  readonly errors: FieldError[];
  private readonly explicitCode?: string;

  constructor(message: string, errors: FieldError[] = [], explicitCode?: string) {
    super(message);
    this.errors = errors;
    this.explicitCode = explicitCode;
    this.name = new.target.name;
  }

  get code(): ErrorCode | (string & {}) {
    return this.explicitCode ?? errorCodeFor(this.statusCode, this.message);
  }
}

export class ValidationError extends DomainError {
  readonly statusCode = 400;
  override get code(): ErrorCode | (string & {}) {
    const code = super.code;
    return code === 'bad_request' ? VALIDATION_FAILED : code;
  }
  static field(path: string, message: string) {
    return new ValidationError(message, [{ path, message }]);
  }
}
export class UnauthorizedError extends DomainError {
  readonly statusCode = 401;
}
export class ForbiddenError extends DomainError {
  readonly statusCode = 403;
}
export class NotFoundError extends DomainError {
  readonly statusCode = 404;
}
/** A transition the current status does not allow. */
export class IllegalStateError extends DomainError {
  readonly statusCode = 409;
}
/** A duplicate, or a write that lost a race. */
export class ConflictError extends DomainError {
  readonly statusCode = 409;
}
export class GoneError extends DomainError {
  readonly statusCode = 410;
}
export class PayloadTooLargeError extends DomainError {
  readonly statusCode = 413;
}
export class UnsupportedMediaTypeError extends DomainError {
  readonly statusCode = 415;
}
/** Too many attempts: the answer says when to try again (`Retry-After`, in seconds). */
export class TooManyRequestsError extends DomainError {
  readonly statusCode = 429;
  readonly retryAfterSeconds: number;

  constructor(message: string, retryAfterSeconds: number) {
    super(message);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** The value, or a 404 naming what was not found. */
export const assertFound = <T>(value: T | null | undefined, what: string): T => {
  if (value === null || value === undefined) throw new NotFoundError(`${what} not found`);
  return value;
};
