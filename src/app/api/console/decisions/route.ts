import { consoleHandler } from '@/server/console/console-handler'
import { listSignupDecisions } from '@/server/console/list-signup-decisions'
import { json } from '@/server/http/respond'

export const dynamic = 'force-dynamic'

/** The latest sign-up decisions with their reasons. */
export const GET = consoleHandler(async ({ db }) => json(await listSignupDecisions({ db })))
