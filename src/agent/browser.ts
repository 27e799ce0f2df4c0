import { collect } from './collect'
import { load } from './loader'

// The IIFE build (public/agent.js): `window.Tessera.load(...)` and `window.Tessera.collect()`.
;(window as unknown as { Tessera: unknown }).Tessera = { load, collect }
