/** Entry point: the graph server itself (start, the request context, the session cookie). Loads every area. */

export * from './platform/bootstrap.js';
export * from './platform/context.js';
export * from './platform/cookies.js';
