import { useAtomValue } from 'jotai';
import { appConfigAtom } from '../state/user';

export function Footer() {
  const { Version } = useAtomValue(appConfigAtom);
  return (
    <footer className="footer">
      <span>Copyright © {new Date().getFullYear()} Hopwatch. All rights reserved.</span>
      {Version && <span className="footer-version">Version {Version}</span>}
    </footer>
  );
}
