import type { TestProject } from 'vitest/node'
import { findPostgresBin, startThrowawayPostgres } from './throwaway-postgres'

declare module 'vitest' {
  export interface ProvidedContext {
    /** Admin URL of the throwaway PostgreSQL server, or '' when none could be started. */
    postgresUrl: string
  }
}

// Below Linux's ephemeral range (32768–60999): an outgoing connection can never be holding it when
// the server starts (54329 once was, and the whole vitest run stopped before its first test).
const PORT = Number(process.env.TESSERA_TEST_PG_PORT ?? 25_432)

/** Starts a throwaway PostgreSQL server on a loopback port for the storage tests and stops it after. */
export default function setup(project: TestProject) {
  if (process.env.TESSERA_TEST_POSTGRES_URL) {
    project.provide('postgresUrl', process.env.TESSERA_TEST_POSTGRES_URL)
    return
  }
  const bin = findPostgresBin()
  if (!bin) {
    if (process.env.CI)
      throw new Error('PostgreSQL server binaries not found; install the postgresql package.')
    console.warn('PostgreSQL not found: the Postgres storage tests will be skipped.')
    project.provide('postgresUrl', '')
    return
  }
  const server = startThrowawayPostgres({ bin, port: PORT })
  project.provide('postgresUrl', server.url)
  return () => server.stop()
}
