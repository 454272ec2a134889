// Globals the SubQuery sandbox injects into mappings (store, logger, registry, chainId...).
import '@subql/types-cosmos/dist/global';
