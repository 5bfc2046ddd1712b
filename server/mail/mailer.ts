/**
 * The mail port: SMTP (nodemailer) when SMTP_URL is set, otherwise the outbox, a table in the
 * database that the log and the local-only `/dev/outbox` page show, so a person running the
 * product on one machine can still click their links.
 */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Where replies go when not to the sender (the contact form: the visitor). */
  replyTo?: string;
}

export interface Mailer {
  readonly kind: 'smtp' | 'outbox';
  send(message: MailMessage): Promise<void>;
}
