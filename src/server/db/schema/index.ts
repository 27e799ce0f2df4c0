export * from './events'
export * from './settings'
export * from './visitors'
