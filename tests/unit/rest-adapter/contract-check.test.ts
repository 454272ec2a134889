import fs from 'fs';
import { parse } from 'yaml';
import { DEFAULT_OPENAPI_PATH } from '../../../rest-adapter/app';
import { routeContractProblems } from '../../../rest-adapter/http/contract-check';

const document = fs.readFileSync(DEFAULT_OPENAPI_PATH, 'utf8');
const documentedGets = Object.keys(parse(document).paths as Record<string, unknown>);

describe('the routes against openapi.yaml at start', () => {
  it('agree when every documented path is served and the parsers apply the documented bounds', () => {
    expect(routeContractProblems(document, documentedGets)).toEqual([]);
  });

  it('name a documented path not served and a served path not documented', () => {
    const served = [...documentedGets.filter((p) => p !== '/v1/stats'), '/v1/extra'];
    expect(routeContractProblems(document, served)).toEqual([
      'GET /v1/stats is documented but not served',
      'GET /v1/extra is served but not documented',
    ]);
  });

  it('name a page bound of the document the parser does not apply', () => {
    const changed = document.replace(/(\n {4}Limit:[\s\S]*?maximum: )100/, '$1200');
    expect(routeContractProblems(changed, documentedGets)).toEqual([
      "parameter Limit: the document's maximum is 200, paging/limits.ts says 100",
    ]);
  });
});
