import { RELEASES, type Release } from '@crp/contracts';
import './help.css';

const DATE = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

/** "16 April 2025" from an ISO date, as the spec writes release dates (spec 001 §2.9). */
export function releaseDate(iso: string): string {
  const d = new Date(`${iso}T00:00:00Z`);
  return Number.isNaN(d.getTime()) ? iso : DATE.format(d);
}

/**
 * The change log as a vertical two-column timeline, newest first: release and date on the left, what changed on the
 * right. The releases are data (@crp/contracts changelog.ts), the same list the server announces as notifications.
 */
export function ChangelogTimeline({ releases = RELEASES }: { releases?: readonly Release[] }) {
  const ordered = [...releases].sort((a, b) => b.date.localeCompare(a.date));
  return (
    <ol className="crp-changelog" data-testid="changelog">
      {ordered.map((r, i) => (
        <li key={r.version} className={`crp-changelog-release${i === 0 ? ' is-latest' : ''}`} data-testid="changelog-release">
          <div className="crp-changelog-when">
            <div className="crp-changelog-version">Release {r.version}</div>
            <time className="crp-changelog-date" dateTime={r.date}>
              {releaseDate(r.date)}
            </time>
          </div>
          <div className="crp-changelog-rail" aria-hidden="true">
            <span className="crp-changelog-dot" />
          </div>
          <div className="crp-changelog-card">
            <h3>{r.title}</h3>
            <ul>
              {r.items.map((item) => (
                <li key={item}>{item}</li>
              ))}
            </ul>
          </div>
        </li>
      ))}
    </ol>
  );
}
