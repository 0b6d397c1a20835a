import { parse as pgliteResults, type PGlite, protocol, type Results } from '@electric-sql/pglite';

/** At most this many prepared texts on the PGlite connection. */
const MAX_PREPARED = 2000;

/**
 * Named prepared statements on PGlite, which has no API for them: its `query` parses, describes and
 * plans every statement anew. Here a text is parsed and described once (its parameters' types kept),
 * then each call only binds, describes the portal and executes, through PGlite's own protocol
 * messages and result parser, under PGlite's lock like its `query`.
 */
export function preparedStatements(pglite: PGlite) {
  const { serialize } = protocol;
  const statements = new Map<string, { name: string; types: number[] }>();
  let named = 0;
  const exchange = (message: Uint8Array) => pglite.execProtocolStream(message, { syncToFs: false });
  const run = (text: string, values: readonly unknown[]) =>
    pglite._runExclusiveQuery(async () => {
      let statement = statements.get(text);
      if (!statement) {
        // A new name for every try: a parse that failed half-way leaves no name behind to collide with.
        const name = `p${++named}`;
        try {
          await exchange(serialize.parse({ name, text }));
          statement = {
            name,
            types: pgliteResults.parseDescribeStatementResults(
              await exchange(serialize.describe({ type: 'S', name })),
            ),
          };
        } finally {
          await exchange(serialize.sync());
        }
        statements.set(text, statement);
      }
      const { name, types: parameterTypes } = statement;
      const serialized = values.map((value, index) => {
        if (value === null || value === undefined) return null;
        const serializer = pglite.serializers[parameterTypes[index]!];
        return serializer ? serializer(value) : String(value);
      });
      // Bind, describe, execute and sync in one exchange: PGlite runs the backend once over the four.
      // After an error the backend skips to the sync, so the connection is ready again either way.
      const messages = await exchange(
        concatBytes([
          serialize.bind({ statement: name, values: serialized }),
          serialize.describe({ type: 'P' }),
          serialize.execute({}),
          serialize.sync(),
        ]),
      );
      await pglite.syncToFs();
      return pgliteResults.parseResults(messages, pglite.parsers)[0] ?? { rows: [], fields: [] };
    });
  return async (text: string, values: readonly unknown[]): Promise<Results> => {
    // Distinct texts are few (the code's statements); a flood of one-off texts runs unprepared.
    if (!statements.has(text) && statements.size >= MAX_PREPARED)
      return pglite.query(text, [...values]);
    try {
      return await run(text, values);
    } catch (error) {
      // The statement's table changed shape under it (a rebuilt read model swapped in): plan it afresh.
      if ((error as { code?: string }).code !== '0A000') throw error;
      statements.delete(text);
      return run(text, values);
    }
  };
}

const concatBytes = (parts: Uint8Array[]) => {
  const joined = new Uint8Array(parts.reduce((length, part) => length + part.length, 0));
  let at = 0;
  for (const part of parts) {
    joined.set(part, at);
    at += part.length;
  }
  return joined;
};
