// One sidebar entry: a route link, or a button for actions (prompts, dialogs).
import type { ReactNode } from 'react';
import { NavLink } from 'react-router-dom';
import { Icon, type IconName } from '../components/Icon';

interface Props {
  icon?: IconName;
  label: string;
  to?: string;
  end?: boolean;
  onClick?: () => void;
  children?: ReactNode;
}

export function NavItem({ icon, label, to, end, onClick }: Props) {
  const content = (
    <>
      {icon ? <Icon name={icon} size={17} /> : <span className="nav-bullet" />}
      <span className="nav-label" title={label}>{label}</span>
    </>
  );
  if (to) {
    return (
      <NavLink to={to} end={end} className={({ isActive }) => `nav-item${isActive ? ' active' : ''}`} onClick={onClick}>
        {content}
      </NavLink>
    );
  }
  return (
    <button type="button" className="nav-item" onClick={onClick}>
      {content}
    </button>
  );
}

/** A titled group whose entries can be folded away. */
export function NavGroup({ title, icon, open, onToggle, children }: { title: string; icon: IconName; open: boolean; onToggle: () => void; children: ReactNode }) {
  return (
    <div className={`nav-group${open ? ' open' : ''}`}>
      <button type="button" className="nav-group-head" aria-expanded={open} onClick={onToggle}>
        <Icon name={icon} size={17} />
        <span className="nav-label" title={title}>{title}</span>
        <Icon name="chevron" size={14} className="chevron" />
      </button>
      {open && <div className="nav-group-items">{children}</div>}
    </div>
  );
}
