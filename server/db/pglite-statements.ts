import { parse, protocol, type PGlite, type QueryOptions, type Results } from '@electric-sql/pglite';

type BackendMessage = Awaited<ReturnType<PGlite['execProtocolStream']>>[number];

/** A statement prepared once under a name: its parameter types, and its row description if it returns rows. */
interface Prepared {
  name: string;
  paramTypes: number[];
  rowDescription: BackendMessage | undefined;
}

/** Distinct statement texts kept prepared; the least recently used is closed beyond that. */
const DEFAULT_CAPACITY = 256;

const { serialize } = protocol;

/**
 * Runs each statement as a named prepared statement, in one call into the engine per execution.
 *
 * PGlite's own `query` parses, describes, binds, describes, executes and syncs in six calls into the
 * engine, and parses and plans the text anew every time: a third of a millisecond of overhead per query,
 * about as much as an insert itself. Here the text is parsed and described once; each execution is
 * then Bind, Execute and Sync in a single message, as a PostgreSQL driver pipelines it. Results come
 * back in PGlite's own shape, converted by the client's parsers and serializers.
 *
 * Calls are serialised like PGlite's: `outside` waits for any open transaction, `inside` runs in one.
 */
export function preparedStatements(client: PGlite, capacity = DEFAULT_CAPACITY) {
  const prepared = new Map<string, Prepared>();
  let made = 0;

  const exchange = (...messages: Uint8Array[]) =>
    client.execProtocolStream(Buffer.concat([...messages, serialize.sync()]), { syncToFs: false });

  async function prepare(text: string): Promise<Prepared> {
    const known = prepared.get(text);
    if (known) {
      // Re-inserted so the map's order stays least-recently-used first.
      prepared.delete(text);
      prepared.set(text, known);
      return known;
    }
    const name = `lumenqc_${++made}`;
    const described = await exchange(serialize.parse({ name, text }), serialize.describe({ type: 'S', name }));
    const statement = {
      name,
      paramTypes: parse.parseDescribeStatementResults(described),
      rowDescription: described.find((message) => message.name === 'rowDescription'),
    };
    prepared.set(text, statement);
    if (prepared.size > capacity) {
      const [oldText, oldest] = prepared.entries().next().value!;
      prepared.delete(oldText);
      await exchange(serialize.close({ type: 'S', name: oldest.name }));
    }
    return statement;
  }

  async function run<T>(text: string, params: unknown[] = [], options?: QueryOptions): Promise<Results<T>> {
    const statement = await prepare(text);
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null;
      const serializer = client.serializers[statement.paramTypes[i]!];
      return serializer ? serializer(value) : String(value);
    });
    const messages = await exchange(serialize.bind({ statement: statement.name, values }), serialize.execute({}));
    const described = statement.rowDescription ? [statement.rowDescription, ...messages] : messages;
    return parse.parseResults(described, client.parsers, options)[0] as Results<T>;
  }

  return {
    /** Runs a statement outside any transaction, after any open one has ended. */
    outside: <T>(text: string, params?: unknown[], options?: QueryOptions) =>
      client._runExclusiveTransaction(() => client.runExclusive(() => run<T>(text, params, options))),
    /** Runs a statement within the transaction the caller holds. */
    inside: <T>(text: string, params?: unknown[], options?: QueryOptions) =>
      client.runExclusive(() => run<T>(text, params, options)),
  };
}
