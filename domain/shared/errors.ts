export type FieldError = { path: string; message: string };

/** A domain error carries the HTTP status it maps to; the server's single error handler reads it. */
export abstract class DomainError extends Error {
  abstract readonly statusCode: number;
  constructor(message: string, readonly errors: FieldError[] = []) {
    super(message);
    this.name = new.target.name;
  }
}

export class ValidationError extends DomainError {
  readonly statusCode = 400;
  static field(path: string, message: string) {
    return new ValidationError(message, [{ path, message }]);
  }
}
export class UnauthorizedError extends DomainError { readonly statusCode = 401; }
export class ForbiddenError extends DomainError { readonly statusCode = 403; }
export class NotFoundError extends DomainError { readonly statusCode = 404; }
/** A transition the current status does not allow. */
export class IllegalStateError extends DomainError { readonly statusCode = 409; }
/** A duplicate, or a write that lost a race. */
export class ConflictError extends DomainError { readonly statusCode = 409; }
export class GoneError extends DomainError { readonly statusCode = 410; }
export class PayloadTooLargeError extends DomainError { readonly statusCode = 413; }
export class UnsupportedMediaTypeError extends DomainError { readonly statusCode = 415; }
