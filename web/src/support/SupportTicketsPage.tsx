// /support-tickets (issue 41 item 11): the tickets users sent from the console's support
// dialog, for the root user of a self-hosted appliance, newest first, with whether each was
// mailed to the support address (Settings > General) and its error log. Everything users
// wrote is shown as text (React escapes it). The hosted flavour's staff read them under
// Staff > Feedback.
import { useAtomValue } from 'jotai';
import { Link } from 'react-router-dom';
import { useDocumentTitle } from '../shell/documentTitle';
import { currentUserAtom } from '../state/user';
import { errorLogUrl } from './api';
import { mailStatus, senderText } from './logic/mailStatus';
import { useSupportTickets } from './useSupportTickets';
import './support.css';

export function SupportTicketsPage() {
  useDocumentTitle('Support Tickets');
  const isRoot = !!useAtomValue(currentUserAtom)?.IsRoot;
  const { rows, reload } = useSupportTickets(isRoot);
  return (
    <section className="page support-tickets">
      <header className="page-header">
        <h1>Support Tickets</h1>
        {isRoot && <button type="button" className="button" onClick={reload}>Refresh</button>}
      </header>
      {!isRoot ? (
        <p className="hint">Only the root user can read the support tickets.</p>
      ) : (
        <>
          <p className="hint">
            Tickets sent with Submit a Support Ticket. Each is mailed to the support e-mail address of{' '}
            <Link to="/settings">Settings &gt; General</Link> (else the root user&apos;s own address) through the mail server set there.
          </p>
          {rows && rows.length === 0 && <p className="hint support-tickets-empty">No support tickets yet.</p>}
          <ol className="support-ticket-list">
            {(rows ?? []).map((t) => {
              const mail = mailStatus(t.Mail);
              return (
                <li key={t.Id} className="support-ticket" data-ticket-id={t.Id}>
                  <div className="support-ticket-head">
                    <strong>#{t.Id}</strong>
                    <span>{new Date(t.Time).toLocaleString()}</span>
                    <span className="support-ticket-sender">{senderText(t)}</span>
                    {t.AccountName && <span className="hint">account {t.AccountName}</span>}
                  </div>
                  <div className="support-ticket-problem">{t.ProblemStatement}</div>
                  <div className="support-ticket-foot">
                    <span className={`support-ticket-mail ${mail.ok ? 'ok' : 'not-mailed'}`}>{mail.text}</span>
                    <a href={errorLogUrl(t.Id)} download>Error log ({t.ErrorLogChars.toLocaleString()} characters)</a>
                  </div>
                </li>
              );
            })}
          </ol>
        </>
      )}
    </section>
  );
}
