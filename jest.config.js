/**
 * Jest runs three projects. `unit`: code that needs no database (pure functions, the devnet run
 * in-process, the layout and import-graph tests). `integration`: everything on a real PostgreSQL
 * (DATABASE_URL, else one embedded server started by the global setup for each jest run),
 * including the end-to-end tests (devnet -> real subql-node-cosmos -> PostgreSQL -> HTTP), one
 * file at a time. `integration-live`: the integration files that spend most of their time waiting
 * for a live devnet's blocks (the app services acting on the chain, pushes after each block):
 * measured at 0.4–0.66 of one core each while the others use ~0.8–1.1, so `npm test` runs them
 * two at a time, before the rest (README, "Tests").
 */
const common = {
  preset: 'ts-jest',
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: { isolatedModules: true } }] },
};
const integration = {
  ...common,
  globalSetup: '<rootDir>/tests/harness/global-setup.ts',
  globalTeardown: '<rootDir>/tests/harness/global-teardown.ts',
};
const live = [
  'app-services/desk-attacks',
  'app-services/desk',
  'app-services/lender-attacks',
  'app-services/lender',
  'app-services/webhooks',
  'rest-adapter/stream',
  'graphql-subscriptions',
].map((name) => `<rootDir>/tests/integration/${name}.test.ts`);
module.exports = {
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/tests/unit/**/*.test.ts'] },
    { ...integration, displayName: 'integration-live', testMatch: live, globals: { svcIndexedStore: false } },
    {
      ...integration,
      displayName: 'integration',
      testMatch: ['<rootDir>/tests/integration/**/*.test.ts'],
      testPathIgnorePatterns: ['/node_modules/', ...live],
    },
  ],
};
