import { RELEASES } from '@crp/contracts';
import type { DB } from '../../infra/db/database.js';
import type { NotificationService } from '../accounts/notification.service.js';

/** Announces each release of the change log once, to every user at that time, as a notification opening /changelog. */
export async function announceReleases(db: DB, notifications: NotificationService): Promise<string[]> {
  const done = new Set((await db.selectFrom('releases_announced').select('version').execute()).map((r) => r.version));
  const announced: string[] = [];
  for (const r of RELEASES) {
    if (done.has(r.version)) continue;
    await db.transaction().execute(async (tx) => {
      const ins = await tx
        .insertInto('releases_announced')
        .values({ version: r.version })
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst();
      if (Number(ins.numInsertedOrUpdatedRows ?? 0) === 0) return; // another process announced it
      await notifications.notifyEveryone(
        { title: `Release ${r.version}: ${r.title}`, message: r.items.join(' '), notification_type: 'info', link: '/changelog' },
        tx,
      );
      announced.push(r.version);
    });
  }
  return announced;
}
