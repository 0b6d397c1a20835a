/** The text check's path: the first string the database cannot keep, named as the 400 names it. */
import t from 'tap';
import { unstorablePath } from './storableText.ts';

t.test('the path of the first unstorable string', async (t) => {
  t.equal(
    unstorablePath({ a: [{ b: 'ok' }, { c: 'x\u0000' }] }),
    'a.1.c',
    'a NUL inside an array of objects',
  );
  t.equal(unstorablePath({ a: { b: ['fine', '\udc00x'] } }), 'a.b.1', 'a lone low surrogate');
  t.equal(unstorablePath({ note: 'end\ud800' }), 'note', 'a lone high surrogate at the end');
  t.equal(unstorablePath({ 'k\u0000': 1 }), 'k\\u0000', 'a key, shown with its NUL escaped');
  t.equal(unstorablePath('\ud800'), '', 'the value itself: the caller names it');
  t.equal(
    unstorablePath({ emoji: '\ud83d\ude9a truck', list: [1, true, null, 'a'] }),
    null,
    'a surrogate pair is a character',
  );
  t.equal(unstorablePath(Buffer.from([0, 0xd8])), null, 'a file is bytes, not text');
  let deep: unknown = 'x\u0000';
  for (let level = 0; level < 100; level++) deep = { d: deep };
  t.equal(unstorablePath(deep), null, 'it looks 64 levels deep, no further (a bound on the walk)');
});
