// A real SMTP server on loopback (the npm smtp-server package) that keeps every message it
// receives, for tests of the service's mail: its SMTP_URL, the messages to an address, and a hold
// that keeps senders waiting (to show that an answer never waits for its mail).
import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export interface SmtpInbox {
  /** The SMTP_URL that delivers here. */
  url: string;
  /** The newest message to `address` with this subject, waited for up to 10 s. */
  mailTo(address: string, subject: string): Promise<Mail>;
  /** Every message to `address` received so far. */
  mailsTo(address: string): Mail[];
  /**
   * From now on each message is kept but not acknowledged: its sender waits (as for a slow mail
   * server) until the returned function is called.
   */
  hold(): () => void;
  close(): Promise<void>;
}

/** The first web address in a message's text. */
export const linkIn = (mail: Mail): string => /https?:\/\/\S+/.exec(mail.text)![0];

export async function startSmtpInbox(): Promise<SmtpInbox> {
  const inbox: Mail[] = [];
  let held: Promise<void> | undefined;
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, _session, callback) {
      simpleParser(stream).then((mail) => {
        inbox.push({ to: (Array.isArray(mail.to) ? mail.to[0] : mail.to)?.text ?? '', subject: mail.subject ?? '', text: mail.text ?? '' });
        void (held ?? Promise.resolve()).then(() => callback());
      }, callback);
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  return {
    url: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`,
    async mailTo(address, subject) {
      for (let i = 0; i < 200; i++) {
        const mail = inbox.findLast((m) => m.to.includes(address) && m.subject === subject);
        if (mail) return mail;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`no mail "${subject}" to ${address}`);
    },
    mailsTo: (address) => inbox.filter((m) => m.to.includes(address)),
    hold() {
      let release!: () => void;
      held = new Promise<void>((resolve) => (release = resolve));
      return () => {
        held = undefined;
        release();
      };
    },
    close: () => new Promise<void>((resolve) => smtp.close(() => resolve())),
  };
}
