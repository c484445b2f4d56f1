import { defineArea } from '../../platform/area.js';
import { ProfileImageService } from './profile-image.service.js';
import { ProfileCommentService } from './profile-comment.service.js';
import { ProfileResolver } from './profile.resolver.js';
import { profileRoutes } from './profile.routes.js';
import { ProfileService } from './profile.service.js';

/** Employee profiles: who knows what, with pictures, likes and comments (pictures in the file store). Name, department and status come from the employee. */
export const profilesArea = defineArea({
  name: 'profiles',
  resolvers: [ProfileResolver],
  routes: profileRoutes,
  services: ({ files }) => {
    const images = new ProfileImageService(files);
    const profiles = new ProfileService(images);
    return { profiles: { profiles, images, comments: new ProfileCommentService(profiles) } };
  },
});
