/**
 * The state contract's conformance suite against the SQL store on PostgreSQL: a real server
 * (Debian's postgresql, started in a temporary folder for this file), a fresh schema per case.
 */
import { createSqlState, resourceTablesMigration } from '../../../src/api/sql';
import { startPostgres, type TestPostgres } from '../../helpers/postgres';
import { describeWith } from '../../helpers/requirements';
import { describeStateConformance } from './conformance';
import { scaled } from '../../helpers/timeScale';

describeWith('postgresql')('SqlState on PostgreSQL (createSqlState({ url }))', () => {
  let server: TestPostgres;
  let url: string;
  beforeAll(async () => {
    server = await startPostgres();
    url = await server.createDatabase('conformance');
  }, scaled(30_000));
  afterAll(async () => { await server?.stop(); });

  describeStateConformance(async (resources) => {
    const store = createSqlState({ url });
    await store.db.schema.dropSchema('public').ifExists().cascade().execute();
    await store.db.schema.createSchema('public').execute();
    await store.migrate({ '0001-tables': resourceTablesMigration(resources) });
    return store;
  }, { propertyRuns: 25 });
});
