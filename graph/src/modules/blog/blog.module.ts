import { defineArea } from '../../platform/area.js';
import { cursorSealer } from '../../platform/cursor.js';
import { BlogCategory } from './blog-category.entity.js';
import { BlogCategoryResolver } from './blog-category.resolver.js';
import { blogCategoryRoutes } from './blog-category.routes.js';
import { BlogCategoryService } from './blog-category.service.js';
import { BlogTagResolver } from './blog-tag.resolver.js';
import { blogTagRoutes } from './blog-tag.routes.js';
import { BlogTagService } from './blog-tag.service.js';
import { BlogPostResolver } from './blog-post.resolver.js';
import { BlogLiveResolver } from './blog.live.resolver.js';
import { blogPostRoutes } from './blog-post.routes.js';
import { BlogPostService } from './blog-post.service.js';
import type { FileStorage } from '../../lib/files/index.js';
import { BlogAttachments } from './blog-post.attachment.js';
import { BlogImageService } from './blog-image.service.js';
import { BlogEngagementResolver } from './engagement/blog-engagement.resolver.js';
import { blogEngagementRoutes } from './engagement/blog-engagement.routes.js';
import { BlogEngagementService } from './engagement/blog-engagement.service.js';
import { BlogCommentResolver } from './comments/blog-comment.resolver.js';
import { blogCommentRoutes } from './comments/blog-comment.routes.js';
import { BlogCommentService } from './comments/blog-comment.service.js';
import { BlogReadingResolver, BlogReadingStatusResolver } from './reading/blog-reading.resolver.js';
import { BlogReadingService } from './reading/blog-reading.service.js';
import { BlogSearchResolver } from './search/blog-search.resolver.js';
import { blogSearchRoutes } from './search/blog-search.routes.js';
import { BlogSearchService } from './search/blog-search.service.js';
import { BlogStatisticsResolver } from './statistics/statistics.resolver.js';
import { blogStatisticsRoutes } from './statistics/statistics.routes.js';
import { BlogStatisticsService } from './statistics/statistics.service.js';
import { BlogPostRevisionResolver } from './revisions/blog-post-revision.resolver.js';
import { blogPostRevisionRoutes } from './revisions/blog-post-revision.routes.js';
import { BlogPostRevisionService } from './revisions/blog-post-revision.service.js';
import { BlogMentionResolver } from './mentions/blog-mention.resolver.js';
import { blogMentionRoutes } from './mentions/blog-mention.routes.js';
import { BlogMentionService } from './mentions/blog-mention.service.js';

/** The blog: categories (and who may see and post in them), tags, posts (attachments under DATA_DIR/files), engagement, comments, required reading, search, statistics, each post's history of revisions, @mentions. */
export const blogArea = defineArea({
  name: 'blog',
  entities: [BlogCategory],
  resolvers: [
    BlogCategoryResolver,
    BlogTagResolver,
    BlogPostResolver,
    BlogLiveResolver,
    BlogEngagementResolver,
    BlogCommentResolver,
    BlogReadingResolver,
    BlogReadingStatusResolver,
    BlogSearchResolver,
    BlogStatisticsResolver,
    BlogPostRevisionResolver,
    BlogMentionResolver,
  ],
  routes: (r) => {
    blogCategoryRoutes(r);
    blogTagRoutes(r);
    blogEngagementRoutes(r);
    blogCommentRoutes(r);
    blogSearchRoutes(r);
    blogStatisticsRoutes(r); // before /blogs/:id
    blogPostRevisionRoutes(r);
    blogMentionRoutes(r);
    blogPostRoutes(r);
  },
  services: ({ files, secret }) => ({ blog: createBlogServices(files, secret) }),
});

function createBlogServices(files: FileStorage, secret: Buffer) {
  const categories = new BlogCategoryService();
  const tags = new BlogTagService();
  const images = new BlogImageService(files);
  const attachments = new BlogAttachments(files);
  const posts = new BlogPostService(categories, tags, attachments, images);
  return {
    categories,
    tags,
    images,
    posts,
    engagement: new BlogEngagementService(posts),
    comments: new BlogCommentService(posts, attachments),
    reading: new BlogReadingService(posts),
    search: new BlogSearchService(posts, cursorSealer(secret, 'blog-search')),
    statistics: new BlogStatisticsService(posts),
    revisions: new BlogPostRevisionService(posts),
    mentions: new BlogMentionService(posts, categories),
  };
}
