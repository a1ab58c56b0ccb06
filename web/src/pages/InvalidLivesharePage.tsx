import { Link } from 'react-router-dom';
import { useDocumentTitle } from '../shell/documentTitle';

export function InvalidLivesharePage() {
  useDocumentTitle('Invalid LiveShare link');
  return (
    <section className="page notice-page">
      <h1>This LiveShare link is invalid or has expired</h1>
      <p>Ask the person who shared it for a new link, or sign in with your own account.</p>
      <p>
        <Link to="/cancel-liveshare" className="button primary">Login Now</Link>
      </p>
    </section>
  );
}
