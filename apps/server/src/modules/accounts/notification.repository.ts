import type { DB } from '../../infra/db/database.js';

/** A notification to store: the row without its id, user and timestamps. */
export interface NotificationInsert {
  title: string;
  message: string;
  notification_type: 'success' | 'warning' | 'error' | 'info';
  link: string | null;
  /** What it is about (`member:<user id>`): `resolve` marks every unread one with this ref read. */
  ref?: string | null;
}

/** SQL of the users' notifications. */
export class NotificationRepository {
  constructor(private readonly db: DB) {}

  /** The user's unread notifications, oldest first, at most `limit`. */
  unread(userId: number, limit: number) {
    return this.db
      .selectFrom('notifications')
      .selectAll()
      .where('user_id', '=', userId)
      .where('read_at', 'is', null)
      .orderBy('created_at')
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  async insertFor(userIds: number[], n: NotificationInsert, db: DB = this.db): Promise<void> {
    await db
      .insertInto('notifications')
      .values(userIds.map((user_id) => ({ user_id, ...n })))
      .execute();
  }

  /** One notification for every active user; answers how many were stored. */
  async insertForActiveUsers(n: NotificationInsert, db: DB = this.db): Promise<number> {
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
            s.val(n.link).as('link'),
          ])
          .where('users.status', '=', 'active'),
      )
      .executeTakeFirst();
    return Number(res.numInsertedOrUpdatedRows ?? 0);
  }

  /** Marks every unread notification about `ref` read, whoever it was for; answers how many. */
  async markReadByRef(ref: string, db: DB = this.db): Promise<number> {
    const res = await db.updateTable('notifications').set({ read_at: new Date() }).where('ref', '=', ref).where('read_at', 'is', null).executeTakeFirst();
    return Number(res.numUpdatedRows);
  }

  /** Marks the user's notification read; answers whether there was one. */
  async markRead(userId: number, notificationId: number): Promise<boolean> {
    const res = await this.db
      .updateTable('notifications')
      .set({ read_at: new Date() })
      .where('id', '=', notificationId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  }
}
