/**
 * A small host app for integration tests: an in-memory embedded index loaded with fixture documents,
 * the plugin mounted with a fixed clock and time zone, driven through supertest without a port.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Koa from 'koa';
import supertest from 'supertest';
import { createVersionsPlugin, type VersionsPluginOptions } from '../../src/index.js';
import { openEmbeddedIndex, type EmbeddedIndex } from '../../src/entries/sqlite.js';
import type { ServerTimeZone } from '../../src/feed/rfc822Date.js';
import type { CatalogIndex } from '../../src/ports.js';
import { recordingLogger, type LoggedLine } from './recordingLogger.js';

export const BASE_URL = 'https://catalog.example.edu';
const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');

/** The documents of test/fixtures/<name>.jsonl. */
export function fixture(name: string): Record<string, unknown>[] {
  return readFileSync(join(FIXTURES, `${name}.jsonl`), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** 14:03:27 local time, São Paulo's -03:00 all year (no DST since 2019). */
export const FIXED_NOW = new Date('2026-05-04T17:03:27Z');
export const SAO_PAULO: ServerTimeZone = {
  timeOfDay: (instant) => {
    const local = new Date(instant.getTime() - 3 * 3600_000);
    return { hours: local.getUTCHours(), minutes: local.getUTCMinutes(), seconds: local.getUTCSeconds() };
  },
  offsetMinutesOnNewYear: () => -180,
};

export interface TestHost {
  request: supertest.Agent;
  index: EmbeddedIndex;
  logged: LoggedLine[];
  app: Koa;
}

export async function openLoadedIndex(documents: Iterable<unknown>): Promise<EmbeddedIndex> {
  const index = openEmbeddedIndex({ path: ':memory:' });
  await index.load(documents, { now: () => new Date('2025-01-01T00:00:00Z') });
  return index;
}

export function hostFor(index: CatalogIndex, options: Partial<VersionsPluginOptions> = {}, prepare?: (app: Koa) => void): Omit<TestHost, 'index'> {
  const logger = recordingLogger();
  const app = new Koa();
  prepare?.(app);
  app.use(createVersionsPlugin({
    index,
    baseUrl: BASE_URL,
    now: () => FIXED_NOW,
    timeZone: SAO_PAULO,
    logger,
    ...options,
  }));
  return { request: supertest.agent(app.callback()), logged: logger.logged, app };
}

export async function testHost(documents: Iterable<unknown>, options: Partial<VersionsPluginOptions> = {}, prepare?: (app: Koa) => void): Promise<TestHost> {
  const index = await openLoadedIndex(documents);
  return { ...hostFor(index, options, prepare), index };
}

/** `count` versions of one work (same author and title), ids `many-001`…, with distinct last_indexed. */
export function manyVersions(count: number, prefix = 'many'): Record<string, unknown>[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `${prefix}-${String(i + 1).padStart(3, '0')}`,
    title: i % 2 === 0 ? 'Memórias póstumas de Brás Cubas' : 'MEMÓRIAS PÓSTUMAS DE BRÁS CUBAS',
    author: 'Assis, Machado de',
    format: 'Book',
    publishDate: String(1881 + i),
    last_indexed: new Date(Date.UTC(2025, 0, 1, 0, 0, i)).toISOString(),
  }));
}
