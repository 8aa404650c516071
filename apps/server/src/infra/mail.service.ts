import nodemailer, { type Transporter } from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import type { DB } from './db/database.js';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

/**
 * Sends e-mail through SMTP_URL. Without SMTP_URL it stores the message in the outbox table and logs it,
 * so a developer can read it (`npm run admin -- outbox`). Every message leaves a row in outbox_emails.
 */
export class MailService {
  private readonly transport: Transporter | null;

  constructor(
    private readonly db: DB,
    private readonly config: Pick<Config, 'SMTP_URL' | 'MAIL_FROM'>,
    private readonly log: FastifyBaseLogger,
  ) {
    this.transport = config.SMTP_URL ? nodemailer.createTransport(config.SMTP_URL) : null;
  }

  async send(mail: Mail): Promise<void> {
    if (!this.transport) {
      await this.db
        .insertInto('outbox_emails')
        .values({ to_address: mail.to, subject: mail.subject, text_body: mail.text, transport: 'outbox', status: 'stored' })
        .execute();
      this.log.info({ to: mail.to, subject: mail.subject }, 'e-mail stored in the local outbox (no SMTP_URL): npm run admin -- outbox');
      return;
    }
    try {
      await this.transport.sendMail({ from: this.config.MAIL_FROM, to: mail.to, subject: mail.subject, text: mail.text });
      await this.db
        .insertInto('outbox_emails')
        .values({ to_address: mail.to, subject: mail.subject, text_body: '(sent by SMTP; body not kept)', transport: 'smtp', status: 'sent' })
        .execute();
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      await this.db
        .insertInto('outbox_emails')
        .values({ to_address: mail.to, subject: mail.subject, text_body: '(not sent)', transport: 'smtp', status: 'failed', error: message })
        .execute();
      this.log.error({ to: mail.to, subject: mail.subject, err: message }, 'e-mail could not be sent');
      throw err;
    }
  }
}
