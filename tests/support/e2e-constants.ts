/** The first operator's password on the e2e server. */
export const ADMIN_PASSWORD = 'e2e correct horse battery'
/** A parent page on this port (http://localhost:<port>) is allowed to embed Tessera. */
export const EMBEDDING_PORT = 3199
