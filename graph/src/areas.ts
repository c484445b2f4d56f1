/**
 * Entry point: what the areas offer the worker pool and the benchmarks (Google sync, import,
 * statistics, the blog's rules and search, the seeders): each area's own code, named here so
 * that a change of it is a change of this surface.
 */

export * from './db/seeders/blog-at-scale.js';
export * from './db/seeders/demo-company.js';
export * from './modules/blog/blog-image.sweep.js';
export * from './modules/blog/blog-post.rules.js';
export * from './modules/blog/blog-post.schedule.js';
export * from './modules/blog/blog-post.visibility.js';
export * from './modules/blog/search/blog-search.normalize.js';
export * from './modules/blog/search/blog-search.queries.js';
export * from './modules/blog/search/blog-search.text.js';
export * from './modules/blog/statistics/statistics.rollup.js';
export * from './modules/computers/computer.entity.js';
export * from './modules/employees/employee.enums.js';
export * from './modules/employees/employee.operator.js';
export * from './modules/google/google-calendar.client.js';
export * from './modules/google/google-quota.js';
export * from './modules/google/google-connection.service.js';
export * from './modules/google/google-mapping.js';
export * from './modules/google/google-token-crypto.js';
export * from './modules/google/google.metrics.js';
export * from './modules/import/import.guard.js';
export * from './modules/import/import.handoff.js';
export * from './modules/import/import.plan.js';
export * from './modules/import/import.refs.js';
export * from './modules/import/import.rows.js';
export * from './modules/import/import.run.js';
export * from './modules/import/import.template.js';
export * from './modules/import/import.writes.js';
export * from './modules/profiles/profile-image.sweep.js';
export * from './modules/schedules/schedule.service.js';
