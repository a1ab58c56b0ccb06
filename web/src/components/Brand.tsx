import { Icon } from './Icon';

export function Brand({ compact = false }: { compact?: boolean }) {
  return (
    <span className="brand-mark">
      <span className="brand-logo"><Icon name="logo" size={18} /></span>
      {!compact && <span className="brand-name">Hopwatch</span>}
    </span>
  );
}
