export * from './events'
export * from './settings'
export * from './sites'
export * from './visitors'
