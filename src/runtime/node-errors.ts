/** Errors of the mappings that npm start recognises in the SubQuery node's log lines. */
/** The mappings' error where a height's proof cannot be chained (src/mappings/entities/proof.ts), from a node line; undefined otherwise. */
export function proofChainBroken(line: string): string | undefined {
  const m = /(proof of indexing: the chain of proofs is broken: [^"\n\\]*)/.exec(line);
  return m?.[1].trim();
}
