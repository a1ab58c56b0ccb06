// The alerts sidebar (spec 3 section 2.7): pages rendered by the server (every value escaped
// there, no script) shown as they are; this component only wires their data- attributes:
// data-page/data-params load a page (data-modal as a modal, data-confirm asks first in the
// console's own dialog), a form with data-finish goes to the finishing call, data-test runs
// "Send test", a select with data-switch shows the form's fields of its choice.
import { useCallback, type MouseEvent, type FormEvent } from 'react';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { Modal } from '../components/Modal';
import { reportError } from '../state/reportError';
import { finishAlert, testAlertAction } from './api';
import { applyFieldVisibility } from './formVisibility';
import { confirmationOf } from './logic/fieldVisibility';
import { serializeFields, sessionAndHost } from './logic/formData';
import { useConfirmation } from './useConfirmation';
import { useAlertPage } from './useAlertPage';
import type { SidebarSize } from './useSidebarWidth';
import './alerts.css';

function formFields(form: HTMLFormElement) {
  return serializeFields(
    [...form.elements].map((el) => {
      const f = el as HTMLInputElement;
      return { name: f.name, type: f.type, value: f.value, checked: f.checked, disabled: f.disabled };
    }),
  );
}

/**
 * The sidebar is fixed to the window's right edge; the screen showing it keeps its width free
 * (margin) so the grid's columns stay beside it, not under it. `size` is the screen's
 * useSidebarWidth (it needs the width); `right`: what is open further right (Insights).
 */
export function AlertsSidebar({ selection, size, right = 0 }: { selection: readonly string[]; size: SidebarSize; right?: number }) {
  const { width, startDrag } = size;
  const pages = useAlertPage(selection, true);
  const confirmation = useConfirmation();

  const onClick = useCallback(
    (e: MouseEvent<HTMLElement>) => {
      const el = (e.target as HTMLElement).closest('button');
      if (!el) return;
      if (el.dataset.page) {
        e.preventDefault();
        let params: unknown = {};
        try {
          params = JSON.parse(el.dataset.params ?? '{}');
        } catch {
          /* the server writes it: never happens */
        }
        const ref = { page: el.dataset.page, params };
        const go = () => void pages.open(ref, el.dataset.modal === 'true');
        const question = confirmationOf(el.dataset);
        if (question) confirmation.ask(question, go);
        else go();
      } else if (el.dataset.test) {
        e.preventDefault();
        const form = el.closest('form');
        const answer = form?.querySelector<HTMLOutputElement>('[data-test-answer]');
        if (!form || !answer) return;
        answer.textContent = 'Sending...';
        testAlertAction({ SerializedData: JSON.stringify(formFields(form)), ...sessionAndHost(selection), SelectedTargets: JSON.stringify(selection) }).then(
          (r) => {
            answer.textContent = r ? `${r.Ok ? 'Worked' : 'Failed'}: ${r.Answer}` : '';
            answer.dataset.ok = String(!!r?.Ok);
          },
          (err) => (answer.textContent = `Failed: ${(err as Error).message}`),
        );
      }
    },
    [pages, selection, confirmation.ask],
  );

  // A switch (condition or action kind) changed: its fields show, the others hide ("input" bubbles from the page's select).
  const onSwitch = useCallback((e: FormEvent<HTMLElement>) => {
    const el = e.target as HTMLElement;
    const form = el.closest('form');
    if (form && el instanceof HTMLSelectElement && el.dataset.switch) applyFieldVisibility(form);
  }, []);

  const onSubmit = useCallback(
    (e: FormEvent<HTMLElement>) => {
      const form = e.target as HTMLFormElement;
      if (form.dataset.finish !== 'true') return;
      e.preventDefault();
      finishAlert({ SerializedData: JSON.stringify(formFields(form)), ...sessionAndHost(selection), SelectedTargets: JSON.stringify(selection) }).then(
        (a) => a && pages.showAnswer(a),
        (err) => reportError(err),
      );
    },
    [pages, selection],
  );

  return (
    <aside className="alerts-sidebar" style={{ width, right }} aria-label="Alerts" data-testid="alerts-sidebar">
      <div className="alerts-resize" onPointerDown={startDrag} role="separator" aria-orientation="vertical" title="Drag to resize" />
      {/* Server-rendered from templates with every value escaped (server/alerts/pages.ts). */}
      <div className="alerts-content" onClick={onClick} onInput={onSwitch} onSubmit={onSubmit} dangerouslySetInnerHTML={{ __html: pages.mainHtml }} />
      {pages.modalHtml !== null && (
        <Modal title="Alerts" onClose={pages.closeModal} width={560}>
          <div className="alerts-content alerts-modal" onClick={onClick} onInput={onSwitch} onSubmit={onSubmit} dangerouslySetInnerHTML={{ __html: pages.modalHtml }} />
        </Modal>
      )}
      {confirmation.asking && <ConfirmDialog confirmation={confirmation.asking} onConfirm={confirmation.confirm} onCancel={confirmation.cancel} />}
    </aside>
  );
}

/** "Show alerts" / "Hide alerts" (AlertsManagement; the caller checks the claim). */
export function AlertsToggle({ visible, onToggle }: { visible: boolean; onToggle: () => void }) {
  return (
    <button type="button" className="button secondary" onClick={onToggle} aria-pressed={visible} data-testid="alerts-toggle">
      {visible ? 'Hide alerts' : 'Show alerts'}
    </button>
  );
}
