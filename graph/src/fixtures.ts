/** Entry point: test files built in memory (pictures with and without metadata, PDFs, zips), with nothing of the platform. */

export * from './lib/files/test-files.js';
export * from './test/zip.js';
