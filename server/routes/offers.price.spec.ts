import t from 'tap';
import { OfferBody, OfferChangeBody } from '../../domain/contracts/offers.contract.ts';

t.test('every amount with at most two decimals is a price, whatever its binary form', async (t) => {
  let refused = 0;
  // Every cent from $1,000.00 to $2,999.99, written as a user types it.
  for (let cents = 100_000; cents < 300_000; cents++) {
    const typed = (cents / 100).toFixed(2);
    const parsed = OfferBody.safeParse({ price: Number(typed) });
    if (!parsed.success || Math.round(parsed.data.price * 100) !== cents) refused++;
  }
  t.equal(refused, 0, 'none of 200,000 cent amounts refused or changed');
  t.equal(OfferBody.parse({ price: 1024.1 }).price, 1024.1);
  t.equal(OfferBody.parse({ price: 0.07 }).price, 0.07);
});

t.test(
  'more than two decimals, zero and negative prices are refused with the field named',
  async (t) => {
    for (const price of [10.001, 99.999, 0, -5, 1_000_000.01, 1e308]) {
      const parsed = OfferBody.safeParse({ price });
      t.notOk(parsed.success, `${price} refused`);
      t.same(
        parsed.error?.issues.map((issue) => issue.path.join('.')),
        ['price'],
      );
    }
    t.match(
      OfferBody.safeParse({ price: 10.001 }).error?.issues[0]?.message,
      'A price has at most 2 decimals',
    );
    t.equal(
      OfferChangeBody.parse({ status: 11, price: 1999.9 }).price,
      1999.9,
      'a counter offer takes the same prices',
    );
  },
);

t.test('a price is a JSON number: text, booleans and lists are refused, not coerced', async (t) => {
  for (const price of [true, [2500], '0x10', '2500', '', null]) {
    const parsed = OfferBody.safeParse({ price });
    t.notOk(parsed.success, `${JSON.stringify(price)} refused`);
    t.same(
      parsed.error?.issues.map((issue) => issue.path.join('.')),
      ['price'],
    );
  }
});
