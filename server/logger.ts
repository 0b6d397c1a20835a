import pino, { type Logger } from 'pino';
import type { Config } from './config.ts';

export function createLogger(config: Pick<Config, 'logLevel' | 'prettyLogs'>): Logger {
  return pino({
    level: config.logLevel,
    redact: { paths: ['req.headers.authorization', 'password', '*.password', 'refreshToken', '*.refreshToken'], censor: '[redacted]' },
    ...(config.prettyLogs ? { transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname' } } } : {}),
  });
}
