import { DISCLAIMERS, REFUSAL_RULES, refusalMessage, refusalOf } from '../../../../app-services/launchpad/refusal';

const RULES = [...new Set(REFUSAL_RULES.map((r) => r.rule))];

describe('refusalOf: promising copy is refused with the expected rule and phrase', () => {
  test.each<[string, string, string]>([
    // rewards and airdrops
    ['Holders earn staking rewards', 'promises earnings', 'earn'],
    ['Staking rewards for every holder', 'promises rewards', 'rewards'],
    ['Rewards Club', 'promises rewards', 'Rewards'],
    ['Airdrop to early holders', 'promises airdrops', 'Airdrop'],
    ['monthly air-drops', 'promises airdrops', 'air-drops'],
    ['Airdropped to the community', 'promises airdrops', 'Airdropped'],
    // returns
    ['Guaranteed returns for holders', 'promises returns', 'Guaranteed returns'],
    ['high returns, low risk', 'promises returns', 'high returns'],
    ['returns of 10% a year', 'promises returns', 'returns of 10%'],
    ['10% annual returns', 'promises returns', '10% annual returns'],
    ['12% per year', 'promises returns', '12% per year'],
    ['8% p.a.', 'promises returns', '8% p.a.'],
    ['dividends of 5% paid monthly', 'promises returns', 'dividends of 5%'],
    ['huge gains ahead', 'promises returns', 'huge gains'],
    // yield
    ['20% APY', 'promises yield', '20% APY'],
    ['APR of 12%', 'promises yield', 'APR of 12%'],
    ['the best apr in town', 'promises yield', 'apr'],
    ['high yield bond', 'promises yield', 'yield'],
    ['yield farming pool', 'promises yield', 'yield'],
    ['Yield Street', 'promises yield', 'Yield'],
    ['a high-yielding note', 'promises yield', 'high-yielding'],
    ['yielding 7% a year', 'promises yield', 'yielding 7%'],
    // interest
    ['pays interest every week', 'promises interest', 'pays interest'],
    ['5% interest', 'promises interest', '5% interest'],
    ['interest rate of 4%', 'promises interest', 'interest rate'],
    // profit
    ['a profitable token', 'promises profit', 'profitable'],
    ['profit sharing for holders', 'promises profit', 'profit'],
    ['double your money', 'promises profit', 'double your money'],
    ['get rich with us', 'promises profit', 'get rich'],
    // income
    ['passive income for everyone', 'promises passive income', 'passive income'],
    ['a steady income', 'promises income', 'steady income'],
    ['income of 200 a month', 'promises income', 'income of 200'],
    // earn
    ['earn 5%', 'promises earnings', 'earn 5%'],
    ['Earn rewards by holding', 'promises earnings', 'Earn rewards'],
    ['holders earn $100 a month', 'promises earnings', 'earn $100'],
    ['start earning today', 'promises earnings', 'earning'],
    // value
    ['it will increase in value', 'promises value', 'will increase in value'],
    ['a store of value', 'promises value', 'store of value'],
    ['worth a lot one day', 'promises value', 'worth a lot'],
    ['worth $5 at launch', 'promises value', 'worth $5'],
    ['the price will rise', 'promises value', 'price will rise'],
    ['value is going to double', 'promises value', 'value is going to double'],
    ['to the moon', 'promises value', 'to the moon'],
    ['a moonshot', 'promises value', 'moonshot'],
    ['10x', 'promises value', '10x'],
    ['100x gains', 'promises value', '100x'],
    ['up to 2.5x', 'promises value', '2.5x'],
    ['x100 soon', 'promises value', 'x100'],
    ['it gains value over time', 'promises value', 'gains value'],
    ['holds its value', 'promises value', 'holds its value'],
    ['a valuable token', 'promises value', 'valuable token'],
    ['a great investment', 'promises value', 'great investment'],
    ['an investment opportunity', 'promises value', 'investment opportunity'],
    // ROI
    ['ROI', 'promises a return on investment', 'ROI'],
    ['fast roi', 'promises a return on investment', 'roi'],
    ['a return on your investment', 'promises a return on investment', 'return on your investment'],
    // guarantees
    ['guaranteed', 'promises a guarantee', 'guaranteed'],
    ['we guarantee it', 'promises a guarantee', 'guarantee'],
    ['guaranteeing a payout', 'promises a guarantee', 'guaranteeing'],
    ['risk-free', 'promises a guarantee', 'risk-free'],
    ['no risk', 'promises a guarantee', 'no risk'],
    ["you can't lose", 'promises a guarantee', "can't lose"],
    // free tokens
    ['free tokens for all', 'promises free tokens', 'free tokens'],
    ['a giveaway', 'promises free tokens', 'giveaway'],
    ['Give-away week', 'promises free tokens', 'Give-away'],
    ['we are giving away coins', 'promises free tokens', 'giving away'],
  ])('%j is refused: %s (%j)', (text, rule, phrase) => {
    expect(refusalOf(text)).toEqual({ rule, phrase });
  });

  test.each<[string, string, string]>([
    ['symbols', 'APY', 'promises yield'],
    ['symbols', 'ROI', 'promises a return on investment'],
    ['symbols', 'YIELD', 'promises yield'],
    ['symbols', '100X', 'promises value'],
    ['symbols', 'EARN', 'promises earnings'],
    ['symbols', 'PROFIT', 'promises profit'],
    ['symbols', 'AIRDROP', 'promises airdrops'],
  ])('%s: %s is refused: %s', (_kind, text, rule) => {
    expect(refusalOf(text)?.rule).toBe(rule);
  });
});

describe('refusalOf: disclaimers and neutral copy pass', () => {
  test.each([
    // the devnet's own descriptions
    'Quay Street Rent Pool: a dividend asset of the svc devnet scenario. Testnet only; it has no value.',
    'Tidewater Note 2027: a bond asset of the svc devnet scenario. Testnet only; it has no value.',
    // disclaimers
    'This token has no value.',
    'No monetary value.',
    'It has no real value.',
    'No returns.',
    'Not an investment.',
    'No rewards.',
    'Without any value.',
    'Zero value.',
    'No rewards, airdrops, returns, yield or profit.',
    'Testnet tokens carry no rewards and no airdrops.',
    'It does not pay interest or promise returns.',
    "It won't earn rewards.",
    "The token isn't worth anything.",
    'It will never be worth anything.',
    'It will not increase in value.',
    'Holders earn nothing.',
    'Worth nothing; worth $0.',
    'Nothing is guaranteed.',
    'There is no guarantee of any kind.',
    'There are no guaranteed returns.',
    'Not financial advice; not a security.',
    'No free tokens.',
    'Neither rewards nor airdrops.',
    'Do not expect any returns; you will not receive airdrops.',
    'A non-profit club.',
    'A not-for-profit commons.',
    'A nonprofit.',
    'no ROI, no APY, no APR',
    // typographic apostrophes
    'It doesn\u2019t pay dividends.',
    // neutral copy
    'community',
    'dividend',
    'equity',
    'bond',
    'an INCOME kind',
    'Each INCOME kind accrues distributions to its holders.',
    'two coupon dates',
    'Quay Street Rent Pool',
    'Tidewater Note 2027',
    'Old Mill Wind-down',
    'Harbour Commons',
    'Lantern Works',
    'Verified Members Club',
    'Le Roi Club',
    'Heroic Apricot Works',
    'Learn with Earnshaw',
    'Yielding Oak',
    'Matures Apr 2027',
    'Transfers returns the tokens to the issuer.',
    '20% of the supply stays with the issuer.',
    'A 64x64 logo; issuer 0xAbC0000000000000000000000000000000000001.',
    'Feel free to join; free to transfer.',
    'Holders vote on the community budget.',
    'Version 2.x of the test.',
  ])('%j passes', (text) => {
    expect(refusalOf(text)).toBeNull();
  });
});

describe('refusalOf: disclaimers cannot hide a promise', () => {
  test.each<[string, string]>([
    ['No fees and guaranteed returns.', 'guaranteed returns'],
    ['No rewards and guaranteed returns.', 'guaranteed returns'],
    ['Not only guaranteed returns but airdrops.', 'guaranteed returns'],
    ['No rewards, returns of 10%.', 'returns of 10%'],
    ['It has no value today, but the price will rise.', 'price will rise'],
    ['No value? 10x!', '10x'],
    ['Not an investment: 20% APY.', '20% APY'],
  ])('%j is refused for %j', (text, phrase) => {
    expect(refusalOf(text)?.phrase).toBe(phrase);
  });
});

describe('refusalOf: spelling tricks', () => {
  test.each<[string, string]>([
    ['full-width letters', '\uff47\uff55\uff41\uff52\uff41\uff4e\uff54\uff45\uff45\uff44 returns'],
    ['a soft hyphen inside a word', 'guar\u00adanteed returns'],
    ['a zero-width space inside a word', 'guaran\u200bteed returns'],
    ['upper case', 'GUARANTEED RETURNS'],
    ['line breaks between the words', 'guaranteed\nreturns'],
  ])('%s', (_trick, text) => {
    expect(refusalOf(text)).toEqual({
      rule: 'promises returns',
      phrase: expect.stringMatching(/^guaranteed\sreturns$/i),
    });
  });
});

describe('the tables', () => {
  it('every rule and disclaimer is a non-global pattern (exec must not keep state)', () => {
    for (const { pattern } of [...REFUSAL_RULES, ...DISCLAIMERS]) expect(pattern.global || pattern.sticky).toBe(false);
  });

  it('every rule reads as "<field> promises ..."', () => {
    for (const rule of RULES) expect(rule).toMatch(/^promises /);
  });

  it('answers the same twice (no regex state between calls)', () => {
    expect(refusalOf('guaranteed returns')).toEqual(refusalOf('guaranteed returns'));
  });

  it.each([
    ['negations and fillers', 'no no no not any the a '.repeat(90)],
    ['a list of nouns that ends in an amount', `no ${'rewards, '.repeat(190)}returns of 5`],
    ['many short lists', 'no rewards or returns 5 '.repeat(80)],
  ])('stays fast on 2000 characters of near-misses: %s', (_what, text) => {
    const start = Date.now();
    for (let i = 0; i < 10; i++) refusalOf(text);
    expect(Date.now() - start).toBeLessThan(1000);
  });
});

describe('refusalMessage', () => {
  it('names the field, the rule and the phrase', () => {
    expect(refusalMessage('description', { rule: 'promises returns', phrase: 'guaranteed returns' })).toBe(
      'description promises returns ("guaranteed returns"): the launchpad refuses names or copy that promise rewards, airdrops, returns, yield, profit or value (testnet tokens have no value)',
    );
  });

  it('quotes a phrase with a quote in it as JSON', () => {
    expect(refusalMessage('name', { rule: 'promises value', phrase: '"10x"' })).toContain('("\\"10x\\"")');
  });
});
