// Sidebar, page and footer: the frame of every signed-in (or guest) screen.
import { Outlet } from 'react-router-dom';
import { HubEventHandlers } from '../hub/HubEventHandlers';
import { Footer } from './Footer';
import { Sidebar } from './Sidebar';
import { useStorageWarning } from './useStorageWarning';

export function Layout() {
  useStorageWarning();
  return (
    <div className="app">
      <HubEventHandlers />
      <Sidebar />
      <div className="main-column">
        <main className="content">
          <Outlet />
        </main>
        <Footer />
      </div>
    </div>
  );
}
