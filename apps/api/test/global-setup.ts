import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../src/db/client.ts';
import { migrateDatabase } from '../src/db/migrate.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    database: 'pglite' | 'postgres';
    postgresUrl: string;
    pgliteSnapshot: string;
    postgresTemplate: string;
  }
}

/** Migrates once per run; each test file then starts from a copy of the migrated database. */
export default async function setup(project: TestProject) {
  if (project.config.provide.database === 'postgres') {
    const url = project.config.provide.postgresUrl as string;
    const template = `paineis_tpl_${process.pid}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`drop database if exists ${template} with (force)`);
    await admin.query(`create database ${template}`);
    const target = new URL(url);
    target.pathname = `/${template}`;
    const database = await openDatabase({ kind: 'postgres', url: target.toString(), poolSize: 1 });
    await migrateDatabase(database);
    await database.close();
    project.provide('postgresTemplate', template);
    return async () => {
      await admin.query(`drop database if exists ${template} with (force)`);
      await admin.end();
    };
  }

  const dir = mkdtempSync(path.join(tmpdir(), 'paineis-pglite-'));
  const database = await openDatabase({ kind: 'pglite' });
  await migrateDatabase(database);
  const client = (database.db as unknown as { $client: PGlite }).$client;
  const snapshot = path.join(dir, 'migrated.tar');
  writeFileSync(snapshot, Buffer.from(await (await client.dumpDataDir('none')).arrayBuffer()));
  await database.close();
  project.provide('pgliteSnapshot', snapshot);
  return () => rmSync(dir, { recursive: true, force: true });
}
