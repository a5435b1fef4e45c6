import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Logger } from './logger.js';

export interface MailAttachment {
  filename: string;
  content: string | Buffer;
  contentType?: string;
  cid?: string;
}

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  attachments?: MailAttachment[];
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
  close(): void;
}

/**
 * With SMTP_URL, mail goes out through that server. Without it each message is written as an
 * RFC 822 .eml file under $DATA_DIR/outbox and its first link is logged, so a developer can
 * follow verification and reset links offline.
 */
export function createMailer(options: { smtpUrl: string | undefined; from: string; dataDir: string; logger: Logger }): Mailer {
  if (options.smtpUrl) {
    const transport = nodemailer.createTransport(options.smtpUrl);
    return {
      async send(mail) {
        await transport.sendMail({ from: options.from, ...mail });
      },
      close: () => transport.close(),
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  const outbox = path.join(options.dataDir, 'outbox');
  // Made once, not per mail (a burst of ticket mails paid a mkdir each); again if it was removed.
  let outboxReady: Promise<unknown> | undefined;
  return {
    async send(mail) {
      const info = await transport.sendMail({ from: options.from, ...mail });
      const safeRecipient = mail.to.replace(/[^a-z0-9@._-]/gi, '_');
      const file = path.join(outbox, `${new Date().toISOString().replace(/[:.]/g, '-')}-${safeRecipient}.eml`);
      await (outboxReady ??= mkdir(outbox, { recursive: true }).catch((error: unknown) => {
        outboxReady = undefined;
        throw error;
      }));
      try {
        await writeFile(file, info.message as Buffer);
      } catch (error) {
        if ((error as { code?: unknown }).code !== 'ENOENT') throw error;
        outboxReady = undefined;
        await mkdir(outbox, { recursive: true });
        await writeFile(file, info.message as Buffer);
      }
      const link = /https?:\/\/\S+/.exec(mail.text)?.[0];
      options.logger.info(`mail "${mail.subject}" to ${mail.to} written to ${file}${link ? ` — link: ${link}` : ''}`);
    },
    close: () => transport.close(),
  };
}
