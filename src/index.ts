/**
 * Entry point of the SubQuery mapping bundle (`subql build` -> dist/index.js):
 * the one handler project.yaml names. It walks each block in chain order and
 * dispatches through the modules' tables (src/mappings/handlers/).
 */
import './mappings/infra/polyfills'; // first: libraries below need TextEncoder when they load
export { handleBlock } from './mappings/block';
