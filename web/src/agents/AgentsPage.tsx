// /agents, /cloudconnect and /agent/{id}: the Agents page of spec 1. The grid on the left,
// the selected agent's detail (or the overview) on the right; dialogs for create, rename
// and delete. Calls go through api.ts; toasts use the spec's texts (logic/agentRows).
import { useAtomValue } from 'jotai';
import { useMemo, useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { isSelfHostedAtom } from '../state/user';
import { reportError } from '../state/reportError';
import { showInfo } from '../state/toasts';
import { copyText } from '../target/clipboard';
import * as api from './api';
import { AgentDetail } from './AgentDetail';
import { AgentGrid } from './AgentGrid';
import { AgentNameDialog } from './AgentNameDialog';
import { AgentsOverview } from './AgentsOverview';
import { overview, Texts, toRow } from './logic/agentRows';
import { useAgents } from './useAgents';
import { useAgentTargetAverages } from './useAgentTargetAverages';
import { useAgentTargets } from './useAgentTargets';
import { useSetupLink } from './useSetupLink';
import './agents.css';
import { useDocumentTitle } from '../shell/documentTitle';

type Dialog = { kind: 'create' } | { kind: 'rename' } | { kind: 'delete'; uninstall: boolean } | { kind: 'renew' } | null;

export function AgentsPage() {
  useDocumentTitle('Agents');
  const selfHosted = useAtomValue(isSelfHostedAtom);
  const { agentUniqueID } = useParams();
  const navigate = useNavigate();
  const { agents, entitlement, magneto, reload } = useAgents({ withEntitlement: true });
  const [dialog, setDialog] = useState<Dialog>(null);
  const selected = useMemo(() => agents?.find((a) => a.UniqueID === agentUniqueID || String(a.ID) === agentUniqueID) ?? null, [agents, agentUniqueID]);
  const { targets, reload: reloadTargets } = useAgentTargets(selected?.ID ?? null, agents);
  const averages = useAgentTargetAverages(selected?.ID ?? null, agents);
  const setup = useSetupLink(selected);
  const rows = useMemo(() => (agents ?? []).map((a) => toRow(a)), [agents]);
  const select = (id: number | null) => {
    const a = agents?.find((x) => x.ID === id);
    navigate(a ? `/agent/${a.UniqueID}` : '/agents');
  };

  const run = async (action: () => Promise<unknown>, ok: string | undefined, failPrefix: string) => {
    try {
      await action();
      if (ok) showInfo(ok);
    } catch (err) {
      reportError(err, { prefix: failPrefix });
    }
    await reload();
  };

  return (
    <div className="agents-page">
      <header className="page-header">
        <h1>{selfHosted ? 'CloudConnect Agents' : 'Cloud Agents'}</h1>
        <button type="button" className="button" disabled={magneto === false} onClick={() => setDialog({ kind: 'create' })}>
          Create Agent
        </button>
      </header>
      {/* /agent/{id} of an agent that is not (or no longer) in the list says so (issue 41 item 10). */}
      {agents && agentUniqueID && !selected && (
        <p className="agents-missing" role="alert">
          No agent {agentUniqueID}: it was deleted, or the link is wrong. Pick an agent from the list.
        </p>
      )}
      {magneto === false && <p className="agents-off">Remote agents are turned off on this server (HOPWATCH_REMOTE_AGENTS=0): only the Local Machine traces.</p>}
      <div className="agents-body">
        <AgentGrid rows={rows} selectedId={selected?.ID ?? null} onSelect={select} />
        {selected ? (
          <AgentDetail
            agent={selected}
            targets={targets}
            averages={averages}
            setupLink={setup.link}
            actions={{
              onClose: () => select(null),
              onReconnect: () => void run(() => api.forceReconnect(selected.ID), Texts.reconnected, Texts.reconnectFailed),
              onRename: () => setDialog({ kind: 'rename' }),
              onDelete: (uninstall) => setDialog({ kind: 'delete', uninstall }),
              onStop: (id) =>
                void api.stopTrace(id).then(
                  () => reloadTargets(),
                  (e) => reportError(e),
                ),
              // Both show the agent's kept link (the server makes no new key: issue 40 item 3), and the install commands with it.
              onInstaller: () =>
                void setup.load(selected.ID).then(
                  (l) => window.open(l.DownloadUrl, '_blank', 'noopener'),
                  (e) => reportError(e, { prefix: `${Texts.downloadFailed}: ` }),
                ),
              onAutoSetup: () =>
                void setup
                  .load(selected.ID)
                  .then((l) => copyText(l.SetupLink))
                  .then(
                    () => showInfo(Texts.autoSetupCopied),
                    (e) => reportError(e, { prefix: `${Texts.downloadFailed}: ` }),
                  ),
              onNewSetupLink: () => setDialog({ kind: 'renew' }),
            }}
          />
        ) : (
          <AgentsOverview o={overview(agents ?? [], entitlement)} cloud={!selfHosted} />
        )}
      </div>
      {dialog?.kind === 'create' && (
        <AgentNameDialog
          mode="create"
          onClose={() => setDialog(null)}
          onSubmit={(name) => {
            setDialog(null);
            // The new agent is selected: PENDING, its install commands show (issue 40 item 5).
            void run(() => api.createAgent(name).then((a) => a && navigate(`/agent/${a.UniqueID}`)), Texts.created(name), Texts.createFailed);
          }}
        />
      )}
      {dialog?.kind === 'rename' && selected && (
        <AgentNameDialog
          mode="update"
          initial={selected.Name}
          onClose={() => setDialog(null)}
          onSubmit={(name) => {
            setDialog(null);
            void run(() => api.updateSentinelName(selected.ID, name), Texts.renamed, Texts.renameFailed);
          }}
        />
      )}
      {dialog?.kind === 'renew' && selected && (
        <ConfirmDialog
          confirmation={{
            title: 'New Auto Setup Link',
            message: `Make a new Auto Setup link for ${selected.Name}? The link copied before stops working: an agent not set up yet with it must be given the new one.`,
            confirmLabel: 'Make New Link',
          }}
          onCancel={() => setDialog(null)}
          onConfirm={() => {
            setDialog(null);
            void setup
              .load(selected.ID, true)
              .then(async (l) => {
                await copyText(l.SetupLink);
                showInfo(Texts.setupLinkRenewed(l.Replaced));
              })
              .catch((e) => reportError(e, { prefix: `${Texts.downloadFailed}: ` }));
          }}
        />
      )}
      {dialog?.kind === 'delete' && selected && (
        <ConfirmDialog
          confirmation={{
            title: dialog.uninstall ? 'Delete And Uninstall Agent' : 'Delete Agent',
            message: `Are you sure you want to delete the agent ${selected.Name}?${dialog.uninstall ? ' It stops its traces and removes its service and credentials.' : ''}`,
            confirmLabel: dialog.uninstall ? 'Delete And Uninstall' : 'Delete',
          }}
          onCancel={() => setDialog(null)}
          onConfirm={() => {
            setDialog(null);
            void run(() => api.deleteAgent(selected.ID, dialog.uninstall), Texts.deleted, Texts.deleteFailed).then(() => navigate('/agents'));
          }}
        />
      )}
    </div>
  );
}
