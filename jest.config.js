/** Jest runs three projects: pure unit tests, integration tests on a real PostgreSQL,
 * and end-to-end tests (devnet -> real subql-node-cosmos -> PostgreSQL -> HTTP). */
const common = {
  preset: 'ts-jest',
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: { isolatedModules: true } }] },
};
module.exports = {
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/tests/unit/**/*.test.ts'] },
    {
      ...common,
      displayName: 'integration',
      testMatch: ['<rootDir>/tests/integration/**/*.test.ts'],
      globalSetup: '<rootDir>/tests/harness/global-setup.ts',
      globalTeardown: '<rootDir>/tests/harness/global-teardown.ts',
    },
  ],
};
