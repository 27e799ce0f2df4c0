/**
 * Tessera's browser agent, for bundlers. Importing it touches no browser global; everything
 * runs when `collect()` or `load()` is called.
 */
export { type CollectOptions, type CollectResult, type Component, type Components, collect } from './collect'
export { type Agent, type GetOptions, type IdentifyResult, type LoadOptions, load } from './loader'
export { type SourceName, sources, volatileSources } from './sources'
export { UNSUPPORTED } from './unsupported'
