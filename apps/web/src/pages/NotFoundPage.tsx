import { useDocumentTitle } from '../lib/useDocumentTitle';
import { ButtonLink } from '../ui/ButtonLink';
import { BrandMark } from '../ui/BrandMark';

export function NotFoundPage() {
  useDocumentTitle('Page Not Found');
  return (
    <main className="crp-notfound">
      <BrandMark />
      <div className="crp-notfound-code" aria-hidden="true">
        404
      </div>
      <h1>Page Not Found</h1>
      <p>The link you followed may be broken, or the page may have been removed or renamed.</p>
      <ButtonLink to="/" type="primary" size="large">
        Go Back
      </ButtonLink>
    </main>
  );
}
