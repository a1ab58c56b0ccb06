import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { installGlobalErrorHandlers } from './state/reportError';
import { rememberLiveShareId } from './state/liveShareCookie';
import { preloadSessions } from './sessions/preload';
import './styles.css';

installGlobalErrorHandlers();
rememberLiveShareId(location.pathname);
preloadSessions(location.pathname);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
