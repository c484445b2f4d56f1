/** Entry point: test support under vitest (platforms on a fresh database, HTTP helpers, fixtures, fake Google, test brokers). */

export * from './modules/blog/blog.live.test-support.js';
export * from './modules/blog/blog.test-support.js';
export * from './platform/events/kafka/test-broker.js';
export * from './test/compiled.js';
export * from './test/db.js';
export * from './test/fake-google-calendar.js';
export * from './test/http.js';
export * from './test/live.js';
