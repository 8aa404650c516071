import { RELEASES } from '@crp/contracts';
import type { DB } from '../../infra/db/database.js';
import type { NotificationService } from '../accounts/notification.service.js';
import { ReleaseRepository } from './release.repository.js';

/** Announces each release of the change log once, to every user at that time, as a notification opening /changelog. */
export async function announceReleases(db: DB, notifications: NotificationService): Promise<string[]> {
  const releases = new ReleaseRepository(db);
  const done = await releases.announcedVersions();
  const announced: string[] = [];
  for (const r of RELEASES) {
    if (done.has(r.version)) continue;
    await releases.transaction(async (repo, tx) => {
      if (!(await repo.markAnnounced(r.version))) return; // another process announced it
      await notifications.notifyEveryone(
        { title: `Release ${r.version}: ${r.title}`, message: r.items.join(' '), notification_type: 'info', link: '/changelog' },
        tx,
      );
      announced.push(r.version);
    });
  }
  return announced;
}
