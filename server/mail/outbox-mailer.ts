/**
 * The embedded mailer: keeps every message in the `mail_outbox` table and logs it. The
 * messages hold other people's sign-in links, so only the machine itself may read them
 * (see the `/dev/outbox` route).
 */
import type { Database } from '../../ports/database.js';
import type { Mailer, MailMessage } from './mailer.js';

export const OUTBOX_SCHEMA = `
CREATE TABLE IF NOT EXISTS mail_outbox (
  id bigserial PRIMARY KEY,
  recipient text NOT NULL,
  subject text NOT NULL,
  text_body text NOT NULL,
  html_body text NOT NULL,
  sent_at timestamptz NOT NULL DEFAULT now()
);`;

export interface OutboxMessage {
  id: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  sentAt: Date;
}

interface OutboxLogger {
  info(details: object, message: string): void;
}

export class OutboxMailer implements Mailer {
  readonly kind = 'outbox' as const;

  private constructor(
    private readonly db: Database,
    private readonly logger: OutboxLogger,
  ) {}

  static async open(db: Database, logger: OutboxLogger): Promise<OutboxMailer> {
    await db.exec(OUTBOX_SCHEMA);
    return new OutboxMailer(db, logger);
  }

  async send(message: MailMessage): Promise<void> {
    await this.db.query('INSERT INTO mail_outbox (recipient, subject, text_body, html_body) VALUES ($1, $2, $3, $4)', [
      message.to,
      message.subject,
      message.text,
      message.html,
    ]);
    this.logger.info({ to: message.to, subject: message.subject, text: message.text }, 'mail kept in the outbox (no SMTP_URL)');
  }

  /** Newest first. */
  async list(limit = 50): Promise<OutboxMessage[]> {
    const { rows } = await this.db.query<{ id: string; recipient: string; subject: string; text_body: string; html_body: string; sent_at: Date }>(
      // Ordered by the column, not by its text (the output name would win in ORDER BY: '7' > '12').
      'SELECT o.id::text AS id, o.recipient, o.subject, o.text_body, o.html_body, o.sent_at FROM mail_outbox o ORDER BY o.id DESC LIMIT $1',
      [limit],
    );
    return rows.map((row) => ({ id: row.id, to: row.recipient, subject: row.subject, text: row.text_body, html: row.html_body, sentAt: new Date(row.sent_at) }));
  }
}
