// @postgres: the mail outbox's claims
import t from 'tap';
import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import { openAuthTestDatabase } from '../../auth/testing.ts';
import { loadConfig } from '../../config.ts';
import { createMailer, smtpOptions, type MailLogger } from './mailer.ts';

const database = await openAuthTestDatabase();
t.teardown(() => database.drop());

function recordingLogger() {
  const lines: { level: string; details: Record<string, unknown>; message: string }[] = [];
  const logger: MailLogger = {
    info: (details, message) => {
      lines.push({ level: 'info', details, message });
    },
    error: (details, message) => {
      lines.push({ level: 'error', details, message });
    },
  };
  return { lines, logger };
}

/** A real SMTP peer on loopback that keeps every raw message it receives. */
async function startSmtpServer(extra: Partial<SMTPServerOptions> = {}) {
  const received: { from: string; to: string[]; raw: string }[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
    ...extra,
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

t.test('with SMTP_URL the message reaches a real SMTP server', async (t) => {
  const smtp = await startSmtpServer();
  t.teardown(smtp.close);
  const { lines, logger } = recordingLogger();
  const mailer = createMailer({
    smtpUrl: `smtp://127.0.0.1:${smtp.port}`,
    db: database.db,
    logger,
  });
  t.teardown(mailer.close);
  t.equal(mailer.mode, 'smtp');
  await mailer.send({
    to: 'dispatch@carrier.example',
    subject: 'Your verification code',
    text: 'Your code is 482913. It is valid for 15 minutes.',
  });
  t.equal(smtp.received.length, 1);
  const [message] = smtp.received;
  t.same(message.to, ['dispatch@carrier.example']);
  t.equal(message.from, 'no-reply@freight.local');
  t.match(message.raw, /Subject: Your verification code/);
  t.match(message.raw, /\b\d{6}\b/);
  t.ok(message.raw.includes('482913'));
  t.same(await mailer.listOutbox(), [], 'nothing kept in the outbox');
  t.match(lines, [{ level: 'info', message: 'e-mail sent' }]);
  t.notOk(JSON.stringify(lines).includes('482913'), 'the code is not logged when mail goes out');
});

t.test('MAIL_FROM is the sender, on the envelope and in the From header', async (t) => {
  const smtp = await startSmtpServer();
  t.teardown(smtp.close);
  const { mailFrom } = loadConfig(
    { MAIL_FROM: 'Acme Freight <dispatch@acme.example>' },
    { inMemory: true },
  );
  const mailer = createMailer({
    smtpUrl: `smtp://127.0.0.1:${smtp.port}`,
    db: database.db,
    logger: recordingLogger().logger,
    from: mailFrom,
  });
  t.teardown(mailer.close);
  await mailer.send({
    to: 'shipper@example.com',
    subject: 'Your verification code',
    text: 'Code 654321',
  });
  t.equal(smtp.received[0]?.from, 'dispatch@acme.example');
  t.match(smtp.received[0]?.raw, /^From: Acme Freight <dispatch@acme\.example>\r?$/m);
});

t.test('credentials in the URL are used for AUTH', async (t) => {
  const seen: string[] = [];
  const smtp = await startSmtpServer({
    allowInsecureAuth: true,
    authMethods: ['PLAIN', 'LOGIN'],
    onAuth(auth, _session, callback) {
      seen.push(`${auth.username}:${auth.password}`);
      if (auth.username === 'mailer@freight' && auth.password === 'p@ss:word')
        return callback(null, { user: auth.username });
      return callback(new Error('Invalid username or password'));
    },
  });
  t.teardown(smtp.close);
  const mailer = createMailer({
    smtpUrl: `smtp://${encodeURIComponent('mailer@freight')}:${encodeURIComponent('p@ss:word')}@localhost:${smtp.port}`,
    db: database.db,
    logger: recordingLogger().logger,
  });
  t.teardown(mailer.close);
  await mailer.send({ to: 'a@b.example', subject: 'Reset your password', text: 'Code 123456' });
  t.same(seen, ['mailer@freight:p@ss:word']);
  t.equal(smtp.received.length, 1);
});

t.test('a failed delivery rejects and is logged', async (t) => {
  const smtp = await startSmtpServer();
  const port = smtp.port;
  await smtp.close();
  const { lines, logger } = recordingLogger();
  const mailer = createMailer({ smtpUrl: `smtp://127.0.0.1:${port}`, db: database.db, logger });
  t.teardown(mailer.close);
  await t.rejects(mailer.send({ to: 'x@y.example', subject: 'Hello', text: 'Code 000111' }));
  t.match(lines, [{ level: 'error', message: 'e-mail could not be sent' }]);
});

t.test('without SMTP_URL messages are logged and kept in the outbox, newest first', async (t) => {
  const { lines, logger } = recordingLogger();
  const mailer = createMailer({ smtpUrl: null, db: database.db, logger });
  t.equal(mailer.mode, 'outbox');
  await mailer.send({
    to: 'first@example.com',
    subject: 'Verify your e-mail',
    text: 'Your code is 111111.',
  });
  await new Promise((resolve) => setTimeout(resolve, 5));
  await mailer.send({
    to: 'second@example.com',
    subject: 'Reset your password',
    text: 'Your code is 222222.',
  });
  const entries = await mailer.listOutbox(10);
  t.equal(entries.length, 2);
  t.match(entries[0], {
    to: 'second@example.com',
    subject: 'Reset your password',
    text: 'Your code is 222222.',
  });
  t.match(entries[1], { to: 'first@example.com', text: 'Your code is 111111.' });
  t.match(entries[0].at, /^\d{4}-\d{2}-\d{2}T/);
  t.equal((await mailer.listOutbox(1)).length, 1, 'limit');
  t.match(lines, [
    { level: 'info', details: { to: 'first@example.com', text: 'Your code is 111111.' } },
    { level: 'info' },
  ]);
});

t.test('header injection and several recipients are refused', async (t) => {
  const mailer = createMailer({ smtpUrl: null, db: database.db, logger: recordingLogger().logger });
  await t.rejects(
    mailer.send({ to: 'a@b.example\r\nBcc: evil@x.example', subject: 'Hi', text: 'x' }),
  );
  await t.rejects(mailer.send({ to: 'a@b.example, c@d.example', subject: 'Hi', text: 'x' }));
  await t.rejects(
    mailer.send({ to: 'a@b.example', subject: 'Hi\r\nBcc: evil@x.example', text: 'x' }),
  );
});

t.test('smtpOptions reads the URL', async (t) => {
  t.match(smtpOptions('smtp://localhost:2525'), {
    host: 'localhost',
    port: 2525,
    secure: false,
    ignoreTLS: true,
    auth: undefined,
  });
  t.match(smtpOptions('smtp://mail.example.com'), {
    host: 'mail.example.com',
    port: 587,
    secure: false,
    ignoreTLS: false,
  });
  t.match(smtpOptions('smtps://u:p@mail.example.com'), {
    port: 465,
    secure: true,
    ignoreTLS: false,
    auth: { user: 'u', pass: 'p' },
  });
  t.throws(() => smtpOptions('http://mail.example.com'));
});
