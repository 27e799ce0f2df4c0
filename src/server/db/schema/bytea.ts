import { customType } from 'drizzle-orm/pg-core'

/** `bytea`, read and written as a Buffer (both drivers hand over bytes; PGlite's as a Uint8Array). */
export const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' })
