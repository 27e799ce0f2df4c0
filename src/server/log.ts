import 'server-only'
import pino from 'pino'
import { getEnv } from './env'

// One JSON line per entry on stdout, so any log shipper can read it.
export const log = pino({
  name: 'tessera',
  level: getEnv().TESSERA_LOG_LEVEL,
  base: { service: 'tessera' },
  timestamp: pino.stdTimeFunctions.isoTime,
})
