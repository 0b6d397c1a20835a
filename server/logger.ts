import pino, { type DestinationStream, type Logger } from 'pino';
import type { Config } from './config.ts';

/** `destination` is where the lines go (standard output when left out; a test passes a stream to read them). */
export function createLogger(config: Pick<Config, 'logLevel' | 'prettyLogs'>, destination?: DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level: config.logLevel,
    redact: { paths: ['req.headers.authorization', 'password', '*.password', 'refreshToken', '*.refreshToken'], censor: '[redacted]' },
    serializers: {
      // Browsers cannot set headers on a WebSocket, so the event feed takes `?token=`: keep it out of the log.
      req: (request: { url?: string }) => {
        const { query: _query, params: _params, ...rest } = pino.stdSerializers.req(request as never) as unknown as Record<string, unknown>;
        return { ...rest, url: typeof request.url === 'string' ? request.url.replace(/([?&](?:token|access_token)=)[^&]*/gi, '$1[redacted]') : request.url };
      },
    },
    ...(config.prettyLogs && !destination ? { transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname' } } } : {}),
  };
  return destination ? pino(options, destination) : pino(options);
}
