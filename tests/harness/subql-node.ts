/** The SubQuery node launcher moved to launcher/subql-node.ts (npm start uses it too); tests keep importing it from here. */
export * from '../../launcher/subql-node';
