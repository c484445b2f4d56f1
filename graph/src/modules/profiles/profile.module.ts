import { defineArea } from '../../platform/area.js';
import { defaultFilesRoot, LocalFileStorage } from '../../lib/files/index.js';
import { ProfileImageService } from './profile-image.service.js';
import { ProfileCommentService } from './profile-comment.service.js';
import { ProfileResolver } from './profile.resolver.js';
import { profileRoutes } from './profile.routes.js';
import { ProfileService } from './profile.service.js';

/** Employee profiles: who knows what, with pictures, likes and comments (pictures under DATA_DIR/files). Name, department and status come from the employee. */
export const profilesArea = defineArea({
  name: 'profiles',
  resolvers: [ProfileResolver],
  routes: profileRoutes,
  services: ({ config }) => {
    const images = new ProfileImageService(new LocalFileStorage(defaultFilesRoot(config.dataDir)));
    const profiles = new ProfileService(images);
    return { profiles: { profiles, images, comments: new ProfileCommentService(profiles) } };
  },
});
