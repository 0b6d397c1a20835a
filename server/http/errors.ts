import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import {
  codeOfMessage,
  errorCodeFor,
  VALIDATION_FAILED,
} from '../../domain/contracts/errorCodes.ts';
import { DomainError, TooManyRequestsError, type FieldError } from '../../domain/shared/errors.ts';
import { sendClientPage } from './clientAssets.ts';

const reasons: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  409: 'Conflict',
  410: 'Gone',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

/** A field's error with the catalog's code of its message, when it has one. */
const withCode = (error: FieldError): FieldError => {
  const code = error.code ?? codeOfMessage(error.message);
  return code ? { ...error, code } : error;
};

/**
 * The error answer (ErrorBodySchema in domain/contracts/common.ts): `code` is the one given, else the
 * catalog's for the message, else the generic one of the status.
 */
export const errorBody = (
  statusCode: number,
  message: string,
  errors?: FieldError[],
  code?: string,
) => ({
  statusCode,
  error: reasons[statusCode] ?? 'Error',
  message,
  code: code ?? errorCodeFor(statusCode, message),
  ...(errors?.length ? { errors: errors.map(withCode) } : {}),
});

/** A 400 from a schema: the first field's code when it has one in the catalog, else `validation_failed`. */
const validationBody = (message: string, errors: FieldError[]) =>
  errorBody(400, message, errors, codeOfMessage(message) ?? VALIDATION_FAILED);

const pathOf = (instancePath: string, context: string | undefined) => {
  const path = instancePath.replace(/^\//, '').replaceAll('/', '.');
  return path || context || '';
};

/** The one place errors become answers: the shape of docs/api.md "Conventions", and never a 5xx message to the client. */
export function errorHandler(
  this: unknown,
  error: FastifyError | Error,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  if (hasZodFastifySchemaValidationErrors(error)) {
    const context = (error as { validationContext?: string }).validationContext;
    const errors = error.validation.map((issue) => ({
      path: pathOf(issue.instancePath, context),
      message: issue.message ?? 'Invalid value',
    }));
    return reply.code(400).send(validationBody(errors[0]?.message ?? 'Invalid request', errors));
  }
  if (error instanceof DomainError) {
    if (error instanceof TooManyRequestsError)
      reply.header('retry-after', String(error.retryAfterSeconds));
    return reply
      .code(error.statusCode)
      .send(errorBody(error.statusCode, error.message, error.errors, error.code));
  }
  const statusCode = (error as FastifyError).statusCode ?? 500;
  if (statusCode >= 400 && statusCode < 500) {
    if ((error as FastifyError).validation) {
      const errors = (error as FastifyError).validation!.map((issue) => ({
        path: pathOf(issue.instancePath, (error as FastifyError).validationContext),
        message: issue.message ?? 'Invalid value',
      }));
      return reply.code(400).send(validationBody(errors[0]?.message ?? error.message, errors));
    }
    return reply.code(statusCode).send(errorBody(statusCode, error.message));
  }
  const unavailable = isDatabaseUnavailable(error);
  request.log.error({ err: error }, unavailable ? 'database unavailable' : 'request failed');
  if (unavailable)
    return reply
      .code(503)
      .header('retry-after', '5')
      .send(errorBody(503, 'The service is temporarily unavailable. Please try again shortly.'));
  return reply.code(500).send(errorBody(500, 'Something went wrong!'));
}

/** Connection refused, terminated backends, a server shutting down: answer 503 fast rather than 500. */
function isDatabaseUnavailable(error: unknown): boolean {
  const code = (error as { code?: string }).code ?? '';
  return (
    ['ECONNREFUSED', 'ECONNRESET', '57P01', '57P02', '57P03', '08006', '08001', '08003'].includes(
      code,
    ) ||
    /Connection terminated|timeout exceeded when trying to connect/i.test(
      (error as Error).message ?? '',
    )
  );
}

/**
 * Unknown API paths answer JSON 404; any other GET gets the client, which routes it (history
 * fallback), and a HEAD the same headers without the body, as for `/` (uptime checks and link
 * checkers ask with HEAD).
 */
export const notFoundHandler =
  (clientBuilt: boolean) => (request: FastifyRequest, reply: FastifyReply) => {
    const url = request.url.split('?')[0];
    const reading = request.method === 'GET' || request.method === 'HEAD';
    if (
      clientBuilt &&
      reading &&
      !url.startsWith('/api') &&
      !url.startsWith('/socket.io') &&
      !hasFileExtension(url)
    ) {
      return sendClientPage(reply);
    }
    return reply.code(404).send(errorBody(404, `Route ${request.method} ${url} not found`));
  };

const hasFileExtension = (url: string) => /\.[a-z0-9]{1,8}$/i.test(url);
