// @postgres: read-your-writes: a log position (transaction id, global position) and a read that waits for it
import t from 'tap';
import { bearer, organization } from '../identity/fixtures.ts';
import { loadBody } from '../testing/loadBodies.ts';
import { startTestApp } from '../testing/testApp.ts';
import { formatLogPosition, LOG_POSITION_HEADER, parseLogPosition } from './consistency.ts';

t.test('a token is two unsigned 64-bit decimals; anything else is ignored', async (t) => {
  t.same(parseLogPosition('901.77'), { transactionId: '901', globalPosition: '77' });
  t.equal(formatLogPosition({ transactionId: '901', globalPosition: '77' }), '901.77');
  for (const bad of [
    '',
    '1',
    '1.',
    '.1',
    '-1.2',
    '1.2.3',
    'a.b',
    '18446744073709551616.1',
    `${'9'.repeat(21)}.1`,
    undefined,
    ['1.2'],
  ]) {
    t.equal(parseLogPosition(bad), null, `refused: ${JSON.stringify(bad)}`);
  }
});

t.test(
  'a load command answers with its position; a read carrying it sees the change',
  async (t) => {
    const { app, platform, close } = await startTestApp();
    t.teardown(close);
    const shipper = await organization(app, platform, 'Shipper');
    const carrier = await organization(app, platform, 'Carrier');
    const posted = await app.inject({
      method: 'POST',
      url: '/api/loads',
      headers: bearer(shipper.token),
      payload: loadBody(),
    });
    t.equal(posted.statusCode, 201, posted.body);
    const token = posted.headers[LOG_POSITION_HEADER];
    t.match(token, /^\d+\.\d+$/, 'the answer names the log position');

    const page = await app.inject({
      method: 'GET',
      url: '/api/loads/carrier',
      headers: { ...bearer(carrier.token), [LOG_POSITION_HEADER]: String(token) },
    });
    t.equal(page.statusCode, 200);
    t.ok(
      page.json().data.some((row: { id: string }) => row.id === posted.json().id),
      "another user's read with the token shows the load",
    );

    const own = await app.inject({
      method: 'GET',
      url: '/api/loads/shipper',
      headers: bearer(shipper.token),
    });
    t.ok(
      own.json().data.some((row: { id: string }) => row.id === posted.json().id),
      'the same session reads its write without the token',
    );

    const cancelled = await app.inject({
      method: 'PUT',
      url: `/api/loads/${posted.json().id}/status`,
      headers: bearer(shipper.token),
      payload: { status: 7, message: 'No longer needed' },
    });
    t.equal(cancelled.statusCode, 200, cancelled.body);
    t.match(cancelled.headers[LOG_POSITION_HEADER], /^\d+\.\d+$/);
    const after = await app.inject({
      method: 'GET',
      url: '/api/loads/carrier',
      headers: {
        ...bearer(carrier.token),
        [LOG_POSITION_HEADER]: String(cancelled.headers[LOG_POSITION_HEADER]),
      },
    });
    t.notOk(
      after.json().data.some((row: { id: string }) => row.id === posted.json().id),
      'the cancelled load has left the marketplace',
    );

    const malformed = await app.inject({
      method: 'GET',
      url: '/api/loads/carrier',
      headers: { ...bearer(carrier.token), [LOG_POSITION_HEADER]: 'not-a-position' },
    });
    t.equal(malformed.statusCode, 200, 'a malformed token is ignored');
  },
);

t.test(
  'without a token, a read that starts after a 201 sees the write, whoever asks',
  async (t) => {
    const { app, platform, close } = await startTestApp();
    t.teardown(close);
    const shipper = await organization(app, platform, 'Shipper');
    const carrier = await organization(app, platform, 'Carrier');
    // Back to back, no token: the carrier's marketplace and the shipper's list each hold every load acknowledged before them.
    for (let round = 0; round < 20; round += 1) {
      const posted = await app.inject({
        method: 'POST',
        url: '/api/loads',
        headers: bearer(shipper.token),
        payload: loadBody({ refNumber: `RACE-${round}` }),
      });
      t.equal(posted.statusCode, 201);
      const [market, own] = await Promise.all([
        app.inject({
          method: 'GET',
          url: `/api/loads/carrier?pageSize=100`,
          headers: bearer(carrier.token),
        }),
        app.inject({
          method: 'GET',
          url: `/api/loads/${posted.json().id}`,
          headers: bearer(shipper.token),
        }),
      ]);
      if (
        !market.json().data.some((row: { id: string }) => row.id === posted.json().id) ||
        own.statusCode !== 200
      ) {
        t.fail(`round ${round}: the load was not yet in the read model (${own.statusCode})`);
        return;
      }
    }
    t.pass('20 of 20 posts read back at once by another user and by the poster');
  },
);
