/**
 * Jest runs two projects. `unit`: code that needs no database (pure functions, the devnet run
 * in-process, the layout and import-graph tests). `integration`: everything on a real PostgreSQL
 * (DATABASE_URL, else one embedded server started by the global setup for the whole run),
 * including the end-to-end tests (devnet -> real subql-node-cosmos -> PostgreSQL -> HTTP).
 */
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
