// The "..." menu at the end of a web user's row: actions the spec's three buttons do not
// cover (issue 26: Send activation link), so Edit, Password and Delete stay as the spec has them.
import { useState } from 'react';
import type { WebUser } from '../../../server/contract/users';
import { PopupMenu } from '../target/PopupMenu';

export function UserRowMenu({ user, onSendActivationLink }: { user: WebUser; onSendActivationLink: () => void }) {
  const [at, setAt] = useState<{ x: number; y: number }>();
  return (
    <>
      <button
        type="button"
        className="button secondary row-menu"
        aria-label={`More actions for ${user.EmailAddress}`}
        aria-haspopup="menu"
        aria-expanded={at !== undefined}
        // The menu closes itself on any press outside it, this button too: the press only opens.
        onClick={(e) => {
          const r = e.currentTarget.getBoundingClientRect();
          setAt({ x: r.left, y: r.bottom + 2 });
        }}
      >
        …
      </button>
      {at && <PopupMenu x={at.x} y={at.y} onClose={() => setAt(undefined)} items={[{ label: 'Send activation link', onSelect: onSendActivationLink }]} />}
    </>
  );
}
