import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string;
  subject: string;
  text: string;
  attachments: Array<{ filename?: string | undefined; contentType: string; content: Buffer }>;
}

/** A real SMTP server on a random port: the app sends through nodemailer exactly as in production. */
export async function startSmtpServer() {
  const inbox: ReceivedMail[] = [];
  const waiters: Array<() => void> = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          inbox.push({
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address).join(','),
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            attachments: parsed.attachments.map((a) => ({ filename: a.filename, contentType: a.contentType, content: a.content })),
          });
          waiters.splice(0).forEach((wake) => wake());
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;

  return {
    url: `smtp://127.0.0.1:${port}`,
    inbox,
    /** Waits for a mail to `to` whose subject matches, and returns it (30 s: on a busy 2-core machine a crowd of sign-ups queues its mails). */
    async waitFor(to: string, subject: RegExp, timeoutMs = 30_000): Promise<ReceivedMail> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = [...inbox].reverse().find((mail) => mail.to.toLowerCase() === to.toLowerCase() && subject.test(mail.subject));
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no mail "${subject.source}" to ${to}; inbox: ${inbox.map((m) => `${m.to}:${m.subject}`).join(', ')}`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 200);
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export function linkIn(mail: ReceivedMail, route: string): string {
  const match = new RegExp(`https?://\\S+/${route}/([A-Za-z0-9_-]+)`).exec(mail.text);
  if (!match) throw new Error(`no /${route}/ link in mail: ${mail.text}`);
  return match[1]!;
}
