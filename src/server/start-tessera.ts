import 'server-only'

/**
 * Validates the configuration, opens (and migrates) the database, creates the default site and
 * the first operator, and starts the webhook worker. A failure stops the server with the reason,
 * rather than leaving it up to serve errors.
 */
export async function startTessera() {
  try {
    await bootTessera()
  } catch (error) {
    console.error(`Tessera could not start: ${error instanceof Error ? error.message : String(error)}`)
    console.error(error)
    process.exit(1)
  }
}

async function bootTessera() {
  const { getEnv, testOnlySettings } = await import('./env')
  const env = getEnv()
  const { log } = await import('./log')
  const { getDatabase } = await import('./db/client')
  const { ensureDefaultSite } = await import('./sites/ensure-default-site')
  const { ensureFirstOperator, FIRST_OPERATOR } = await import('./console/ensure-first-operator')
  const { runWebhookWorker } = await import('./webhooks/run-webhook-worker')

  // The network databases load before anything is answered: a missing or corrupt file stops the
  // start-up with its name. SIGHUP reads newer files in place (docs/signals.md, "Network intelligence").
  const { networkData, reloadNetworkData } = await import('./network/network-data')
  const loading = performance.now()
  const network = networkData()
  log.info({ files: network.files, ms: Math.round(performance.now() - loading) }, 'network data loaded')
  process.on('SIGHUP', () => reloadNetworkData())

  const started = performance.now()
  const { db, engine } = await getDatabase()
  const site = await ensureDefaultSite({ db, origins: env.TESSERA_ALLOWED_ORIGINS })
  log.info(
    { engine, ms: Math.round(performance.now() - started), defaultSiteKey: site.publicKey },
    'database ready',
  )

  const testOnly = testOnlySettings(env)
  if (testOnly.length > 0)
    log.warn(
      { settings: testOnly },
      `test-only settings are on (${testOnly.join(', ')}): never run a production server like this`,
    )

  const operator = await ensureFirstOperator({ db, configuredPassword: env.TESSERA_ADMIN_PASSWORD })
  if (operator.generatedPassword) {
    // Printed once, at the first start; only its argon2id hash is stored.
    log.warn(
      { username: FIRST_OPERATOR, password: operator.generatedPassword },
      'first operator created: sign in at / with this password, then change it',
    )
  } else if (operator.created) {
    log.info({ username: FIRST_OPERATOR }, 'first operator created with TESSERA_ADMIN_PASSWORD')
  }
  const { markTesseraReady } = await import('./readiness')
  markTesseraReady()
  runWebhookWorker(db)
  if (engine === 'pglite') {
    // The embedded database has no autovacuum: its small churned tables and planner statistics are kept here.
    const { runTableUpkeep } = await import('./db/table-upkeep')
    runTableUpkeep(db, {
      tended: (tables) => log.debug(tables, 'tables vacuumed and analyzed'),
      failed: (error) => log.warn({ err: error }, 'vacuuming or analyzing tables failed'),
    })
  }
  const { runRekeying } = await import('./identification/rekey-visitors')
  runRekeying(db, {
    progress: (pass) => log.info(pass, 'visitors rebuilt for this version of the matching model'),
    failed: (error) => log.warn({ err: error }, 'rebuilding visitors for this model version failed'),
  })
  const { runModelLearning } = await import('./identification/learn-model')
  runModelLearning(db, {
    learned: (pass) => log.debug(pass, 'matching model learned'),
    failed: (error) => log.warn({ err: error }, 'learning the matching model failed'),
  })
  const { runSketchCompaction } = await import('./console/compact-sketches')
  runSketchCompaction(db, (error) =>
    log.warn({ err: error }, "compacting the console's visitor sketches failed"),
  )
  if (engine === 'postgres') {
    const { runEventPartitioning } = await import('./db/event-partitions')
    runEventPartitioning(db, (error) =>
      log.warn(
        { err: error },
        "keeping the days' event tables (the coming ones made, a past one packed) failed",
      ),
    )
  }
  const { runRetention } = await import('./retention/purge-expired-data')
  runRetention(
    db,
    env.TESSERA_RETENTION_DAYS,
    ({ took, ...removed }) => {
      if (Object.values(removed).some((count) => count > 0))
        log.info({ ...removed, took, days: env.TESSERA_RETENTION_DAYS }, 'expired data purged')
    },
    (error) => log.warn({ err: error }, 'purging expired data failed; the next hourly pass tries again'),
  )
}
