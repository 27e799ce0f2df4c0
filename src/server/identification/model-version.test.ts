import { describe, expect, it } from 'vitest'
import { MODEL_SIGNATURE, MODEL_VERSION, modelSignature } from './model-version'

describe('the matching model version', () => {
  it('changes whenever what stored profiles and blocking keys are built from changes', () => {
    // A failure here means blocking groups, parts kinds, facet members or the digest code changed:
    // stored visitors were built otherwise. Bump MODEL_VERSION (rekey-visitors.ts rebuilds them)
    // and record the new signature in MODEL_SIGNATURE.
    expect(modelSignature(), `model version ${MODEL_VERSION}`).toBe(MODEL_SIGNATURE)
  })
})
