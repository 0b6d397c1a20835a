import pino, { type DestinationStream, type Logger } from 'pino';
import type { Config } from './config.ts';

/** Query parameters that carry a secret: the event feed's access token, reset and sign-up codes, a tracking link's token. */
const SECRET_QUERY = /([?&](?:token|access_token|share_?token|code)=)[^&#]*/gi;
/**
 * Paths that end in a tracking link's token (whoever holds it sees the tour): the public API, the
 * page the link opens, and the link's revocation. Everything after the prefix goes, up to the query.
 */
const SECRET_PATHS = [/(\/shared\/track\/)[^?#]+/gi, /(\/tours\/[^/?#]+\/share\/)[^?#]+/gi];

const redact = (url: string) =>
  SECRET_PATHS.reduce((text, pattern) => text.replace(pattern, '$1[redacted]'), url).replace(
    SECRET_QUERY,
    '$1[redacted]',
  );

/**
 * The URL as the log keeps it: secret query values and tracking-link tokens replaced by
 * `[redacted]`. The router decodes %-escapes, so `/shared/tr%61ck/<token>` reaches the same route:
 * a URL whose secret shows once decoded is logged decoded, with the secret out.
 */
export function redactUrl(url: string): string {
  let plain = url;
  try {
    plain = decodeURIComponent(url);
  } catch {
    /* malformed escapes: the URL as it came */
  }
  return redact(plain !== url && redact(plain) !== plain ? plain : url);
}

/** `destination` is where the lines go (standard output when left out; a test passes a stream to read them). */
export function createLogger(
  config: Pick<Config, 'logLevel' | 'prettyLogs'>,
  destination?: DestinationStream,
): Logger {
  const options: pino.LoggerOptions = {
    level: config.logLevel,
    redact: {
      paths: [
        'req.headers.authorization',
        'password',
        '*.password',
        'refreshToken',
        '*.refreshToken',
      ],
      censor: '[redacted]',
    },
    serializers: {
      // Browsers cannot set headers on a WebSocket, so the event feed takes `?token=`, and a tracking
      // link carries its token in the path: neither may reach the log, nor the parsed query and params.
      req: (request: { url?: string }) => {
        const {
          query: _query,
          params: _params,
          ...rest
        } = pino.stdSerializers.req(request as never) as unknown as Record<string, unknown>;
        const headers = rest.headers as Record<string, unknown> | undefined;
        // A page's address comes back as the Referer of what it loads (browsers send none under our Referrer-Policy; others may).
        if (typeof headers?.referer === 'string')
          rest.headers = { ...headers, referer: redactUrl(headers.referer) };
        return {
          ...rest,
          url: typeof request.url === 'string' ? redactUrl(request.url) : request.url,
        };
      },
    },
    ...(config.prettyLogs && !destination
      ? {
          transport: {
            target: 'pino-pretty',
            options: { translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname' },
          },
        }
      : {}),
  };
  return destination ? pino(options, destination) : pino(options);
}
