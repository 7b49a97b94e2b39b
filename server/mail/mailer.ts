import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** Logged beside the recipient so an operator without mail can still hand a key over. */
  key?: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

export interface MailerOptions {
  from: string;
  smtpUrl?: string;
  outboxDir: string;
  log: (line: string) => void;
}

/**
 * Without SMTP every message becomes an .eml file in the outbox folder (one file per message, named so that
 * they sort by time), and one line is logged. With `SMTP_URL` messages go to that server.
 */
export function createMailer(options: MailerOptions): Mailer {
  if (options.smtpUrl) {
    const transport = nodemailer.createTransport(options.smtpUrl);
    return {
      async send(message) {
        await transport.sendMail({ from: options.from, to: message.to, subject: message.subject, text: message.text });
        options.log(`mail sent to ${message.to}: ${message.subject}`);
      },
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  let sequence = 0;
  return {
    async send(message) {
      const info = await transport.sendMail({
        from: options.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
      });
      await mkdir(options.outboxDir, { recursive: true });
      sequence = (sequence + 1) % 1000;
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const recipient = message.to.replace(/[^a-zA-Z0-9@._-]/g, '_');
      const file = path.join(
        options.outboxDir,
        `${stamp}-${String(sequence).padStart(3, '0')}-${process.pid}-${recipient}.eml`,
      );
      await writeFile(file, info.message as Buffer);
      options.log(`mail to ${message.to} | ${message.subject}${message.key ? ` | key ${message.key}` : ''}`);
    },
  };
}
