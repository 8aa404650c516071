import type { Notification } from '@crp/contracts';
import type { DB } from '../../infra/db/database.js';
import { notFound } from '../../lib/errors.js';
import { presentNotification } from './user.presenter.js';

export interface NewNotification {
  title: string;
  message: string;
  notification_type: 'success' | 'warning' | 'error' | 'info';
  link?: string | null;
}

export class NotificationService {
  constructor(private readonly db: DB) {}

  async pending(userId: number): Promise<Notification[]> {
    const rows = await this.db
      .selectFrom('notifications')
      .selectAll()
      .where('user_id', '=', userId)
      .where('read_at', 'is', null)
      .orderBy('created_at')
      .orderBy('id')
      .limit(50)
      .execute();
    return rows.map(presentNotification);
  }

  async notify(userIds: number[], n: NewNotification, db: DB = this.db): Promise<void> {
    if (userIds.length === 0) return;
    await db
      .insertInto('notifications')
      .values(userIds.map((user_id) => ({ user_id, title: n.title, message: n.message, notification_type: n.notification_type, link: n.link ?? null })))
      .execute();
  }

  /** Notifies every active user (used for new releases). */
  async notifyEveryone(n: NewNotification, db: DB = this.db): Promise<number> {
    const res = await db
      .insertInto('notifications')
      .columns(['user_id', 'title', 'message', 'notification_type', 'link'])
      .expression((eb) =>
        eb
          .selectFrom('users')
          .select((s) => [
            'users.id',
            s.val(n.title).as('title'),
            s.val(n.message).as('message'),
            s.val(n.notification_type).as('notification_type'),
            s.val(n.link ?? null).as('link'),
          ])
          .where('users.status', '=', 'active'),
      )
      .executeTakeFirst();
    return Number(res.numInsertedOrUpdatedRows ?? 0);
  }

  async markRead(userId: number, notificationId: number): Promise<void> {
    const res = await this.db
      .updateTable('notifications')
      .set({ read_at: new Date() })
      .where('id', '=', notificationId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) === 0) throw notFound(`notification_id: no notification ${notificationId} for this user.`);
  }
}
