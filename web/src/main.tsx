import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '@primer/primitives/dist/css/primitives.css';
import '@primer/primitives/dist/css/functional/themes/light.css';
import './app/global.css';
import { App } from './app/App';
import { preloadRoute } from './app/router';

// The first render as a transition: React renders it in slices of a few milliseconds instead of one
// long task (a phone's main thread stays responsive). It starts once what it shows is here, so it
// replaces the pre-rendered page with the same page, never with a loading fallback.
const root = createRoot(document.getElementById('root')!);
void preloadRoute(window.location.pathname).then(() =>
  startTransition(() =>
    root.render(
      <StrictMode>
        <App />
      </StrictMode>,
    ),
  ),
);
