// Sidebar, page and footer: the frame of every signed-in (or guest) screen.
import { Outlet } from 'react-router-dom';
import { Footer } from './Footer';
import { Sidebar } from './Sidebar';

export function Layout() {
  return (
    <div className="app">
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
