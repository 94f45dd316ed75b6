/** Unit tests live beside the code (*.test.ts); HTTP contract tests in test/contract. */
module.exports = {
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': ['@swc/jest'] },
  testMatch: ['<rootDir>/libs/**/*.test.ts', '<rootDir>/services/**/*.test.ts', '<rootDir>/test/**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/'],
  testTimeout: 30000,
  // A worker whose heap earlier files grew past 1 GB is replaced before the next file, so no file
  // inherits a large heap to walk (the idle collector's tests collect the worker's whole heap).
  workerIdleMemoryLimit: '1GB',
  reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
};
