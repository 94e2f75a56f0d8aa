// The service's e-mail (verification, password reset) through nodemailer: to SMTP_URL when set;
// otherwise (the embedded default) each message is written to DATA_DIR/outbox/ as an .eml file
// and its first link printed to the log, so `npm start` works with no mail server.
import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

export interface MailerSettings {
  smtpUrl: string | undefined;
  from: string;
  outboxDir: string;
  log?: (line: string) => void;
}

export function createMailer(settings: MailerSettings): Mailer {
  if (settings.smtpUrl) {
    const transport = nodemailer.createTransport(settings.smtpUrl);
    return {
      async send(message) {
        await transport.sendMail({ from: settings.from, ...message });
      },
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  const log = settings.log ?? ((line: string) => console.log(line));
  return {
    async send(message) {
      const info = await transport.sendMail({ from: settings.from, ...message });
      await fs.mkdir(settings.outboxDir, { recursive: true });
      const file = path.join(settings.outboxDir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${info.messageId.replace(/[^A-Za-z0-9]/g, '').slice(0, 16)}.eml`);
      await fs.writeFile(file, info.message as Buffer);
      const link = /https?:\/\/\S+/.exec(message.text)?.[0];
      log(`Mail to ${message.to} ("${message.subject}") written to ${file}${link ? `; its link: ${link}` : ''}`);
    },
  };
}
