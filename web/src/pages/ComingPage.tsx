// Screens built by later issues: their routes and gates are real, their content is not yet.
import { useDocumentTitle } from '../shell/documentTitle';

export function ComingPage({ screen, note }: { screen: string; note?: string }) {
  useDocumentTitle(screen);
  return (
    <section className="page">
      <header className="page-header">
        <h1>{screen}</h1>
      </header>
      <div className="coming-card">
        <h2>Coming soon</h2>
        <p>The {screen} screen is not part of this Hopwatch build yet.</p>
        {note && <p className="hint">{note}</p>}
      </div>
    </section>
  );
}
