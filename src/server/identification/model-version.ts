import { hash } from 'node:crypto'
import { blockingKeys, deviceKeys } from './blocking-keys'
import { blockingGroups, facets, partsKinds, settings } from './component-model'
import {
  canonicalJson,
  digestPart,
  digestValue,
  isRandomised,
  MAX_PARTS,
  PART_WIDTH,
  partsOf,
  partTexts,
  profileComponents,
} from './fingerprint-profile'

/**
 * The version of what a stored visitor's matching data was built with: its profile (digests and
 * parts) and its blocking keys. Visitors store it (`visitors.model_version`); those built with an
 * older version are rebuilt in the background from their latest event (rekey-visitors.ts), so an
 * upgrade never leaves them unfindable.
 * 2: per-device volatility stored; profiles rebuilt once from the latest event.
 * 3: blocking keys hold the settings people change, all but one or two of them at a time.
 * 4: a blocking key for every three of the five settings (two-setting keys were crowded).
 * 5: a stored device's keys hold every mix of its settings' latest and earlier values.
 * 6: those mixes keep the latest hardware, also where a single setting changed.
 */
export const MODEL_VERSION = 6

/**
 * The signature of everything stored data depends on, as of MODEL_VERSION. The test beside this
 * file fails when it changes: bump MODEL_VERSION and record the new signature.
 */
export const MODEL_SIGNATURE = 'QZ_I5NimYMs4TRS6'

/** A digest of the definitions (and the code) that stored profiles and blocking keys follow. */
export function modelSignature(): string {
  const definitions = {
    blockingGroups,
    settings,
    partsKinds,
    members: Object.fromEntries(Object.entries(facets).map(([facet, model]) => [facet, model.members])),
    PART_WIDTH,
    MAX_PARTS,
    // The code that turns values into digests, parts and keys: a change to it changes stored data too.
    code: [
      canonicalJson,
      digestValue,
      digestPart,
      partTexts,
      partsOf,
      isRandomised,
      profileComponents,
      blockingKeys,
      deviceKeys,
    ].map((fn) => fn.toString().replace(/\s+/g, ' ')),
  }
  return hash('sha256', JSON.stringify(definitions), 'base64url').slice(0, 16)
}
