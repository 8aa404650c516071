import type { Notification } from '@crp/contracts';
import type { DB } from '../../infra/db/database.js';
import { notFound } from '../../lib/errors.js';
import { presentNotification } from './user.presenter.js';
import type { NotificationRepository } from './notification.repository.js';

export interface NewNotification {
  title: string;
  message: string;
  notification_type: 'success' | 'warning' | 'error' | 'info';
  link?: string | null;
  /** What it is about (`member:<user id>`), so `resolve` can mark it read for everyone once that is settled. */
  ref?: string;
}

/** The users' notifications: unread list, notify some or everyone, mark read. */
export class NotificationService {
  constructor(private readonly repo: NotificationRepository) {}

  async pending(userId: number): Promise<Notification[]> {
    const rows = await this.repo.unread(userId, 50);
    return rows.map(presentNotification);
  }

  /** Stores the notification for each user (in the caller's transaction when `db` is given). */
  async notify(userIds: number[], n: NewNotification, db?: DB): Promise<void> {
    if (userIds.length === 0) return;
    await this.repo.insertFor(
      userIds,
      { title: n.title, message: n.message, notification_type: n.notification_type, link: n.link ?? null, ref: n.ref ?? null },
      db,
    );
  }

  /** Notifies every active user (used for new releases). */
  async notifyEveryone(n: NewNotification, db?: DB): Promise<number> {
    return this.repo.insertForActiveUsers({ title: n.title, message: n.message, notification_type: n.notification_type, link: n.link ?? null }, db);
  }

  /** The matter `ref` is settled (a join request decided): its notifications are read for every recipient. */
  async resolve(ref: string): Promise<void> {
    await this.repo.markReadByRef(ref);
  }

  async markRead(userId: number, notificationId: number): Promise<void> {
    if (!(await this.repo.markRead(userId, notificationId))) throw notFound(`notification_id: no notification ${notificationId} for this user.`);
  }
}
