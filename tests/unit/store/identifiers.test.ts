/** The store room's identifier quoting: checked names quoted, refused names never escaped into shape. */
import { escapeIdent, isIdentifier, quoteIdent, tablesIn } from '../../../src/store';

describe('quoteIdent', () => {
  it('quotes a lower-case identifier as it is', () => {
    expect(quoteIdent('svc')).toBe('"svc"');
    expect(quoteIdent('_app_2')).toBe('"_app_2"');
    expect(quoteIdent('a'.repeat(63))).toBe(`"${'a'.repeat(63)}"`);
  });

  it.each(['', 'Svc', '1svc', 'svc-x', 'svc"; DROP SCHEMA svc; --', 'a'.repeat(64)])('refuses %j', (name) => {
    expect(isIdentifier(name)).toBe(false);
    expect(() => quoteIdent(name)).toThrow(TypeError);
  });
});

describe('escapeIdent and tablesIn', () => {
  it('doubles embedded quotes (the rest-adapter takes any DB_SCHEMA)', () => {
    expect(escapeIdent('My"Schema')).toBe('"My""Schema"');
    expect(tablesIn('My"Schema').blocks).toBe('"My""Schema"."blocks"');
  });

  it('qualifies every table with the schema', () => {
    const t = tablesIn('svc');
    expect(t.metadata).toBe('"svc"."_metadata"');
    expect(t.invariantChecks).toBe('"svc"."invariant_checks"');
    expect(Object.isFrozen(t)).toBe(true);
  });
});
