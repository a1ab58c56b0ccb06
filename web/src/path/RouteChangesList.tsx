// The route changes of the Path view's range (issue 44 item 3): time, agent, target, hop,
// old -> new, each opening the before/after comparison, exported as CSV or JSON.
import type { PathRouteChange, PathView } from '../../../server/contract/path-view';
import { routeChangesCsv, routeChangesJson } from './logic/routeChangeExport';
import { downloadUrl } from '../api/download';

/** The export as a file download (made in the browser: the list is already here). */
function save(text: string, type: string, name: string) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  downloadUrl(url, name);
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function RouteChangesList({ view, onOpen }: { view: PathView; onOpen: (c: PathRouteChange) => void }) {
  const targetName = (c: PathRouteChange) => {
    const s = view.Sessions.find((x) => x.SessionId === c.SessionId);
    return s ? s.TargetName || s.TargetAddress : c.TargetId;
  };
  const stamp = view.Start.slice(0, 16).replace(/[:T]/g, '-');
  return (
    <section className="path-changes" data-testid="path-changes">
      <header>
        <h3>Route changes ({view.RouteChanges.length})</h3>
        <button type="button" disabled={!view.RouteChanges.length} onClick={() => save(routeChangesCsv(view.RouteChanges, targetName), 'text/csv', `route-changes-${stamp}.csv`)}>
          Export CSV
        </button>
        <button type="button" disabled={!view.RouteChanges.length} onClick={() => save(routeChangesJson(view.RouteChanges, targetName), 'application/json', `route-changes-${stamp}.json`)}>
          Export JSON
        </button>
      </header>
      {view.RouteChanges.length === 0 ? (
        <p className="path-muted">No hop changed its addresses in this range.</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th>Time</th>
              <th>Agent</th>
              <th>Target</th>
              <th>Hop</th>
              <th>Old → New</th>
            </tr>
          </thead>
          <tbody>
            {view.RouteChanges.map((c) => (
              <tr key={`${c.SessionId} ${c.Hop} ${c.Time}`} onClick={() => onOpen(c)} title="Compare the path before and after">
                <td>{new Date(c.Time).toLocaleString()}</td>
                <td>{c.AgentName}</td>
                <td>{targetName(c)}</td>
                <td>{c.Hop}</td>
                <td>
                  {c.Old.join(', ')} → {c.New.join(', ')}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
