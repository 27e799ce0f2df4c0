/** Expected unavailability: the browser does not offer this signal. Not an error. */
export const UNSUPPORTED = 'unsupported'
export type Unsupported = typeof UNSUPPORTED
