import 'server-only'
import pino, { type DestinationStream } from 'pino'
import { getEnv } from './env'
import { serializeError } from './log-error'

export { errorCode } from './log-error'

/** One JSON line per entry, so any log shipper can read it; errors bounded and without payloads. */
export function createLog(destination?: DestinationStream) {
  const options = {
    name: 'tessera',
    level: getEnv().TESSERA_LOG_LEVEL,
    base: { service: 'tessera' },
    timestamp: pino.stdTimeFunctions.isoTime,
    serializers: { err: serializeError, error: serializeError },
  }
  return destination ? pino(options, destination) : pino(options)
}

export const log = createLog()
