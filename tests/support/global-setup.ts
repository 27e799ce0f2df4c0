import { ADMIN_PASSWORD, EMBEDDING_PORT } from './e2e-constants'
import { removeServerFiles, startTesseraServer } from './tessera-server'

/** One shared Tessera server for the e2e and agent specs, with the test-only fault switch on. */
export default async function globalSetup() {
  // The same port playwright.config.ts gives the specs as baseURL.
  const port = Number(process.env.TESSERA_E2E_PORT ?? 3100)
  const server = await startTesseraServer({
    port,
    env: {
      TESSERA_TEST_FAULTS: '1',
      TESSERA_ADMIN_PASSWORD: ADMIN_PASSWORD,
      TESSERA_ALLOWED_ORIGINS: `http://localhost:${EMBEDDING_PORT}`,
      // Small proof-of-work puzzles keep the challenge tests quick.
      TESSERA_CHALLENGE_DIFFICULTY: '5000',
    },
  })
  process.env.TESSERA_E2E_LOG = server.logFile
  return async () => {
    await server.stop()
    removeServerFiles(server)
  }
}
