import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '@primer/primitives/dist/css/primitives.css';
import '@primer/primitives/dist/css/functional/themes/light.css';
import './app/global.css';
import { App } from './app/App';
import { preloadRoute } from './app/router';

preloadRoute(window.location.pathname);

// The first render as a transition: React renders it in slices of a few milliseconds instead of one
// long task (a phone's main thread stays responsive), and waits for the preloaded route chunk
// instead of committing a loading fallback first.
const root = createRoot(document.getElementById('root')!);
startTransition(() =>
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
