import {
  UNSAFE_createBrowserHistory as createBrowserHistory,
  unstable_HistoryRouter as HistoryRouter,
} from 'react-router-dom';
import { appApollo } from './apollo';
import { AppProviders } from './AppProviders';
import { LeaveGuardDialog } from './LeaveGuardDialog';
import { appLeaveGate, guardHistory } from './leave-guard';
import { AppRoutes } from './router';

/** The browser history the router reads, with the unsaved-edits guard in front (leave-guard.ts). */
const history = guardHistory(createBrowserHistory({ window, v5Compat: true }), appLeaveGate);

export function App() {
  return (
    <AppProviders client={appApollo().client}>
      <HistoryRouter history={history}>
        <AppRoutes />
      </HistoryRouter>
      <LeaveGuardDialog />
    </AppProviders>
  );
}
