import nodemailer from 'nodemailer';
import type { Mailer, MailMessage } from './mailer.js';

/** Sends mail through the SMTP server in `url` (smtp:// or smtps://, credentials in the URL). */
export function createSmtpMailer(url: string, from: string): Mailer {
  const transport = nodemailer.createTransport(url);
  return {
    kind: 'smtp',
    async send(message: MailMessage) {
      await transport.sendMail({ from, ...message });
    },
  };
}
