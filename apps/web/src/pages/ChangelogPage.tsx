import { useDocumentTitle } from '../lib/useDocumentTitle';
import { PageHeader } from '../ui/PageHeader';
import { ChangelogTimeline } from '../features/help/ChangelogTimeline';

export function ChangelogPage() {
  useDocumentTitle('Change log');
  return (
    <div className="crp-page">
      <PageHeader title="Change log" subtitle="What changed in each release of the platform, newest first." />
      <ChangelogTimeline />
    </div>
  );
}
