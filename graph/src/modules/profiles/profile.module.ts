import { defineArea } from '../../platform/area.js';
import { ProfileCommentService } from './profile-comment.service.js';
import { ProfileResolver } from './profile.resolver.js';
import { profileRoutes } from './profile.routes.js';
import { ProfileService } from './profile.service.js';

/** Employee profiles: who knows what, with likes and comments. Name, department and status come from the employee. */
export const profilesArea = defineArea({
  name: 'profiles',
  resolvers: [ProfileResolver],
  routes: profileRoutes,
  services: () => {
    const profiles = new ProfileService();
    return { profiles: { profiles, comments: new ProfileCommentService(profiles) } };
  },
});
