/** rest-adapter/db/params.ts: placeholders, and the words written into the text as literals. */
import { SqlParams } from '../../../rest-adapter/db/params';

describe('SqlParams', () => {
  it('numbers placeholders in the order values are added', () => {
    const p = new SqlParams();
    expect([p.add('a'), p.add(2n), p.add(null)]).toEqual(['$1', '$2', '$3']);
    expect(p.values).toEqual(['a', 2n, null]);
  });

  it('writes a word as a quoted literal and adds no value', () => {
    const p = new SqlParams();
    expect(p.word('STATUS_PENDING')).toBe("'STATUS_PENDING'");
    expect(p.word('in_flight')).toBe("'in_flight'");
    expect(p.values).toEqual([]);
  });

  it('refuses anything but letters and underscores (no way out of the quotes)', () => {
    const p = new SqlParams();
    for (const bad of ["x' OR '1'='1", "pending'--", 'a b', '', 'é', '1', 'a;b', '\\'])
      expect(() => p.word(bad)).toThrow(TypeError);
  });
});
