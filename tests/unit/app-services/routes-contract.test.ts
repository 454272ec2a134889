import fs from 'fs';
import type { Pool } from 'pg';
import { APP_OPENAPI_PATH, AppServices } from '../../../app-services';
import { APP_SERVICES_DEFAULTS } from '../../../app-services/config';
import { checkServedOperations } from '../../../src/http/openapi-routes';

const document = fs.readFileSync(APP_OPENAPI_PATH, 'utf8');
const silent = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

describe('the /api routes against app-services/openapi.yaml at start', () => {
  it('serve exactly the documented operations (building the router checks it)', () => {
    const services = new AppServices({
      pool: {} as Pool, // building the router reads nothing
      databaseUrl: 'postgres://unused',
      settings: { ...APP_SERVICES_DEFAULTS, keys: {} },
      hrp: 'svc',
      gasDenom: 'usvc',
      stableDenom: 'uusdc',
      indexerSchema: 'svc',
      log: silent,
    });
    expect(services.router).toBeDefined();
  });

  it('name an operation served but not documented, and one documented but not served', () => {
    const served = ['GET /api/openapi.yaml', 'GET /api/desk/quotes', 'POST /api/desk/rfq', 'GET /api/lender/terms'];
    expect(() => checkServedOperations('the /api routes', document, [...served, 'GET /api/extra'])).toThrow(
      /GET \/api\/lender\/loans is documented but not served[\s\S]*GET \/api\/extra is served but not documented/,
    );
  });
});
