/** Unit tests live beside the code (*.test.ts); HTTP contract tests in test/contract. */
module.exports = {
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': ['@swc/jest'] },
  testMatch: ['<rootDir>/libs/**/*.test.ts', '<rootDir>/services/**/*.test.ts', '<rootDir>/test/**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/'],
  testTimeout: 30000,
  // A worker whose heap earlier files grew is replaced before the next file: heavy heaps slow every
  // later collection (the idle collector's tests start from a clean heap and time out behind one).
  workerIdleMemoryLimit: '1GB',
  reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
};
