// Providers, router and start-up: the console loads the appliance facts and the current
// user, then shows the routes; a start-up failure shows an error panel instead.
import { Provider } from 'jotai';
import { useEffect, useState } from 'react';
import { RouterProvider, createBrowserRouter } from 'react-router-dom';
import { errorMessage } from './api/errors';
import { routes } from './shell/routes';
import { ErrorBoundary } from './shell/ErrorFallback';
import { followAppConfig } from './state/followAppConfig';
import { followCurrentUser } from './state/followUser';
import { loadSession } from './state/session';
import { store } from './state/store';

const router = createBrowserRouter(routes);

function hideLoadingPanel() {
  document.getElementById('loading-panel')?.remove();
}

function StartupError({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <div className="center-screen">
      <div className="auth-card">
        <h1>Hopwatch could not start</h1>
        <p>The console could not reach the Hopwatch server: {message}</p>
        <button type="button" className="button primary" onClick={onRetry}>Try again</button>
      </div>
    </div>
  );
}

export function App() {
  const [startup, setStartup] = useState<{ state: 'loading' | 'ready' } | { state: 'failed'; message: string }>({ state: 'loading' });
  const start = () => {
    setStartup({ state: 'loading' });
    loadSession()
      .then(() => {
        followCurrentUser();
        followAppConfig();
        setStartup({ state: 'ready' });
      })
      .catch((e: unknown) => setStartup({ state: 'failed', message: errorMessage(e) }))
      .finally(hideLoadingPanel);
  };
  useEffect(start, []);

  return (
    <Provider store={store}>
      <ErrorBoundary>
        {startup.state === 'failed' ? (
          <StartupError message={startup.message} onRetry={start} />
        ) : startup.state === 'ready' ? (
          <RouterProvider router={router} />
        ) : (
          <div className="startup-panel">Loading Hopwatch…</div>
        )}
      </ErrorBoundary>
    </Provider>
  );
}
