// /subscription (cloud flavour, UserManagement): the account's plan, entitled traces and
// agents and their current use (the Agents Overview cards' figures). Entitlements are set by
// the provider's staff, so Change Capacity opens a support ticket to them (staff read tickets
// on their Feedback page); the Agents page's Manage Subscription and Change Capacity links
// lead here.
import { useAtomValue } from 'jotai';
import { useState } from 'react';
import { NotFoundPage } from '../pages/NotFoundPage';
import { isSelfHostedAtom } from '../state/user';
import { Link } from 'react-router-dom';
import { SupportTicketDialog } from '../components/SupportTicketDialog';
import { useDocumentTitle } from '../shell/documentTitle';
import { figuresOf } from './logic/figures';
import { useSubscription } from './useSubscription';
import '../agents/agents.css';

function Bar({ percent, label }: { percent: number; label: string }) {
  return (
    <div className="capacity-bar" role="progressbar" aria-label={label} aria-valuenow={percent} aria-valuemin={0} aria-valuemax={100}>
      <div style={{ width: `${percent}%` }} />
    </div>
  );
}

/** Cloud flavour only: self-hosted has no subscriptions (spec 1 section 2). */
export function SubscriptionPage() {
  return useAtomValue(isSelfHostedAtom) ? <NotFoundPage /> : <Subscription />;
}

function Subscription() {
  useDocumentTitle('Subscription');
  const sub = useSubscription();
  const [ticketOpen, setTicketOpen] = useState(false);
  if (!sub) return <section className="page subscription" aria-busy="true" />;
  const f = figuresOf(sub);
  return (
    <section className="page subscription">
      <header className="page-header">
        <h1>Subscription</h1>
      </header>
      <p>
        Account <strong>{sub.AccountName}</strong>, plan <strong data-testid="plan">{sub.Plan || '(none)'}</strong>
      </p>
      <section className="agents-overview" aria-label="Subscription use">
        <div className="capacity-card">
          <h3>TOTAL TRACE CAPACITY</h3>
          <p data-testid="traces">{f.tracesText}</p>
          <Bar percent={f.tracePercent} label="Trace capacity" />
        </div>
        <div className="capacity-card">
          <h3>AGENT CAPACITY</h3>
          <p data-testid="agents">{f.agentsText}</p>
          <p data-testid="entitled-agents">{f.entitledAgentsText}</p>
          <Bar percent={f.agentPercent} label="Agents online" />
        </div>
      </section>
      <p className="subscription-actions">
        <button type="button" className="button primary" onClick={() => setTicketOpen(true)}>Change Capacity</button>{' '}
        <Link to="/agents">Manage your traces and agents</Link>
      </p>
      {ticketOpen && <SupportTicketDialog onClose={() => setTicketOpen(false)} />}
    </section>
  );
}
