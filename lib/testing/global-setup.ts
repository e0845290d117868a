import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite/vector';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { closePglite, openDatabase } from '../db/client';

/** Migrates once here, so parallel suites sharing one server never race to create the schema. */
async function migrate(url: string) {
  const migrated = await openDatabase({ url });
  await migrated.close();
}

/**
 * With TEST_DATABASE=wire, every suite talks to one PostgreSQL server over the wire protocol
 * (`pg`), here a PGlite socket server, instead of an in-process PGlite: the DATABASE_URL path.
 * An existing server can be named with TEST_DATABASE_URL instead.
 */
export default async function setup() {
  if (process.env.TEST_DATABASE_URL) return migrate(process.env.TEST_DATABASE_URL);
  if (process.env.TEST_DATABASE !== 'wire') return undefined;
  const db = await PGlite.create({ extensions: { vector } });
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 32 });
  await server.start();
  const url = `postgres://postgres@${server.getServerConn()}/postgres?sslmode=disable`;
  await migrate(url);
  process.env.TEST_DATABASE_URL = url;
  return async () => {
    await server.stop();
    await closePglite(db);
  };
}
