import { defineArea, type AreaSetup } from '../../platform/area.js';
import type { EmployeeService } from '../employees/employee.service.js';
import { AuthResolver, PasswordStateResolver } from './auth.resolver.js';
import { authRoutes } from './auth.routes.js';
import { ApiKeyResolver } from './api-key.resolver.js';
import { apiKeyRoutes } from './api-key.routes.js';
import { ApiKeyService } from './api-key.service.js';
import { AuthService } from './auth.service.js';
import { GoogleVerifier } from './google-verifier.js';
import { LoginThrottler } from './login-throttle.js';

/** Sign-in and sign-out (its sessions are the platform's: see `PlatformServices.sessions`), and API keys for tools. */
export const authArea = defineArea({
  name: 'auth',
  resolvers: [AuthResolver, PasswordStateResolver, ApiKeyResolver],
  routes: (r) => {
    authRoutes(r);
    apiKeyRoutes(r);
  },
  services: ({ config, sessions, employees }: AreaSetup & { employees: EmployeeService }) => ({
    auth: new AuthService(sessions, new LoginThrottler(config), new GoogleVerifier(config), employees),
    apiKeys: new ApiKeyService(),
  }),
});
