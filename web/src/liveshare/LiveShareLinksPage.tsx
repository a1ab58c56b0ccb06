// /LiveShareLinks/ and /LiveShareLinks/{SUM-id|AGT-id} (spec 1 "LiveShare link management"):
// every link of the account, or those of one summary or agent with its header, a link back
// to all links and Create LiveShare. The hooks load; this component lays out and sends the
// row actions (each with its toast), then reloads the list.
import { useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import type { LiveShareLink } from '../../../server/contract/liveshare';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { useDocumentTitle } from '../shell/documentTitle';
import { reportError } from '../state/reportError';
import { showInfo } from '../state/toasts';
import { deleteLink, updateLink } from './api';
import { CreateLinkModal, EditLinkModal, copyLinkUrl } from './LinkModals';
import { LinksGrid } from './LinksGrid';
import { AllLinksText, deleteConfirmation, filteredHeader, notValidSummaryText, sharedListCell } from './logic/links';
import { useLiveShareLinks, useSharedNames } from './useLiveShareLinks';
import './liveshare.css';

type Dialog = { kind: 'create' } | { kind: 'edit' | 'delete'; link: LiveShareLink } | undefined;

export function LiveShareLinksPage() {
  const { summaryId } = useParams();
  const filter = summaryId || undefined;
  useDocumentTitle('LiveShare Links');
  const { links, invalid, loaded, reload } = useLiveShareLinks(filter);
  const { summaries, agents, names } = useSharedNames();
  const [dialog, setDialog] = useState<Dialog>();
  const close = () => setDialog(undefined);
  const sharedName = (ref: string) => sharedListCell(ref, names).text.replace(/^(Summary|Agent): /, '');

  const toggle = (l: LiveShareLink) =>
    updateLink(l.ShareId, { Active: !l.Active }).then(() => {
      showInfo(l.Active ? 'LiveShare link disabled' : 'LiveShare link enabled');
      reload();
    }, (e) => reportError(e));
  const remove = (l: LiveShareLink) =>
    deleteLink(l.ShareId).then(() => {
      showInfo(l.Active ? 'LiveShare link deactivated' : 'LiveShare link deleted');
      reload();
    }, (e) => reportError(e));

  if (filter && invalid) {
    return (
      <section className="page liveshare-links">
        <p className="form-failure" role="alert">{notValidSummaryText(filter)}</p>
        <Link to="/LiveShareLinks/">Show all links</Link>
      </section>
    );
  }
  return (
    <section className="page liveshare-links">
      <header className="page-header">
        <h1>LiveShare Links</h1>
      </header>
      {filter ? (
        <div className="liveshare-tools">
          <h2 data-testid="liveshare-filter-header">{filteredHeader(filter, sharedName(filter))}</h2>
          <Link to="/LiveShareLinks/" className="clear-filter">Clear filter (all links)</Link>
          <button type="button" className="button primary" onClick={() => setDialog({ kind: 'create' })}>Create LiveShare</button>
        </div>
      ) : (
        <p className="liveshare-tools">{AllLinksText}</p>
      )}
      {loaded && (
        <LinksGrid
          links={links}
          names={names}
          filtered={!!filter}
          actions={{
            onCopy: (l) => copyLinkUrl(l.LiveShareURL),
            onEdit: (link) => setDialog({ kind: 'edit', link }),
            onToggle: (l) => void toggle(l),
            // An active link is deactivated after a confirmation; an inactive one goes at once.
            onDelete: (link) => (link.Active ? setDialog({ kind: 'delete', link }) : void remove(link)),
          }}
        />
      )}
      {dialog?.kind === 'create' && filter && <CreateLinkModal summaryRef={filter} onClose={close} onChanged={reload} />}
      {dialog?.kind === 'edit' && <EditLinkModal link={dialog.link} summaries={summaries} agents={agents} onClose={close} onChanged={reload} />}
      {dialog?.kind === 'delete' && (
        <ConfirmDialog
          confirmation={deleteConfirmation(dialog.link, sharedName(dialog.link.SummaryID))}
          onCancel={close}
          onConfirm={() => {
            const l = dialog.link;
            close();
            void remove(l);
          }}
        />
      )}
    </section>
  );
}
