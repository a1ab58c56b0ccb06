// /staff/userandevents: find a user of any account (name or e-mail), then read their recent
// events: sign-ins (ok and failed), changes (state-changing calls: method, route, status)
// and errors (calls answered 400 or more). Kept 30 days, the newest 1,000 per user.
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import type { StaffUser, UserEventKind } from '../../../../server/contract/staff';
import { UserEventKind as Kinds } from '../../../../server/contract/staff';
import { useDocumentTitle } from '../../shell/documentTitle';
import { findStaffUsers, listUserEvents } from '../api';
import { ImpersonateButton } from '../ImpersonateButton';
import { idParam } from '../logic/query';
import { eventKindText, localTime } from '../logic/text';
import { useStaffData } from '../useStaffData';
import '../staff.css';

function UserEvents({ user, userId }: { user: StaffUser | undefined; userId: number }) {
  const [kind, setKind] = useState<UserEventKind | ''>('');
  const { data: events = [], loading, reload } = useStaffData(() => listUserEvents(userId, kind || undefined), [userId, kind], 'the user\'s events');
  return (
    <div className="user-events">
      <h2>{user ? `${user.Name || user.EmailAddress} (${user.AccountName})` : `User ${userId}`}</h2>
      <div className="staff-tools">
        <select aria-label="Event kind" value={kind} onChange={(e) => setKind(e.target.value as UserEventKind | '')}>
          <option value="">Every event</option>
          {Object.values(Kinds).map((k) => (
            <option key={k} value={k}>{eventKindText({ Kind: k })}</option>
          ))}
        </select>
        <button type="button" className="button secondary" onClick={reload}>Refresh</button>
        <Link to={`/staff/sessionaudit/?userId=${userId}`}>Sign-in sessions</Link>
        <ImpersonateButton userId={userId} />
      </div>
      <table className="staff-grid" role="grid" aria-label="User events">
        <thead>
          <tr>
            <th>Time</th>
            <th>Event</th>
            <th>Call</th>
            <th>Status</th>
            <th>Address</th>
            <th>Note</th>
          </tr>
        </thead>
        <tbody>
          {events.map((e) => (
            <tr key={e.Id}>
              <td>{localTime(e.Time)}</td>
              <td>
                <span className={`staff-badge ${e.Kind === 'Error' || e.Kind === 'SignInFailed' ? 'bad' : e.Kind === 'SignIn' ? 'ok' : ''}`}>{eventKindText(e)}</span>
              </td>
              <td>{`${e.Method} ${e.Route}`}</td>
              <td>{e.Status || ''}</td>
              <td>{e.Address}</td>
              <td>{e.Detail}</td>
            </tr>
          ))}
          {!loading && events.length === 0 && (
            <tr>
              <td colSpan={6} className="hint">No events in the last 30 days.</td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}

export function UsersAndEventsPage() {
  useDocumentTitle('Users and Events');
  const [params, setParams] = useSearchParams();
  const userId = idParam(params, 'userId');
  const [search, setSearch] = useState('');
  const [applied, setApplied] = useState('');
  const { data: users = [], loading } = useStaffData(() => findStaffUsers(applied), [applied], 'the users');
  const selected = users.find((u) => u.Id === userId);
  return (
    <section className="page staff-page users-and-events">
      <header className="page-header">
        <h1>Users and Events</h1>
      </header>
      <form
        className="staff-tools"
        onSubmit={(e) => {
          e.preventDefault();
          setApplied(search.trim());
        }}
      >
        <input type="search" placeholder="User name or e-mail..." aria-label="Find a user" value={search} maxLength={320} onChange={(e) => setSearch(e.target.value)} />
        <button type="submit" className="button primary">Find</button>
        {loading && <span className="hint">Loading...</span>}
      </form>
      <div className="staff-split">
        <table className="staff-grid" role="grid" aria-label="Users">
          <thead>
            <tr>
              <th>User</th>
              <th>Account</th>
            </tr>
          </thead>
          <tbody>
            {users.map((u) => (
              <tr key={u.Id} className={u.Id === userId ? 'selected' : undefined}>
                <td>
                  <button type="button" className="link-button" onClick={() => setParams({ userId: String(u.Id) })}>
                    {u.Name || u.EmailAddress}
                  </button>
                  <div className="hint">{u.EmailAddress}{u.IsRoot ? ' (root)' : ''}</div>
                </td>
                <td>{u.AccountName}</td>
              </tr>
            ))}
            {!loading && users.length === 0 && (
              <tr>
                <td colSpan={2} className="hint">No user matches.</td>
              </tr>
            )}
          </tbody>
        </table>
        {userId ? <UserEvents userId={userId} user={selected} /> : <p className="hint">Pick a user to read their recent events.</p>}
      </div>
    </section>
  );
}
