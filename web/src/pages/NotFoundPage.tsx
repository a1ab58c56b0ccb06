// Unknown paths and paths the user may not open (spec 1 section 2).
import { Link, useLocation } from 'react-router-dom';
import { useDocumentTitle } from '../shell/documentTitle';

export function NotFoundPage() {
  const { pathname } = useLocation();
  useDocumentTitle('Page not found');
  return (
    <section className="page notice-page">
      <h1>Page not found or can't be loaded</h1>
      <p>
        The page <code>{pathname}</code> does not exist or you do not have permission to view it.
      </p>
      <p>
        <Link to="/" className="button primary">Go to the home page</Link>
      </p>
    </section>
  );
}
