import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import type { LatestMatch } from '@/contracts/device'
import { MatchExplanation } from './MatchExplanation'

const matched = (jointBits: number | undefined): LatestMatch => ({
  method: 'fingerprint',
  confidence: 0.94,
  evidence: { bits: 27.8, twinBits: 3, contextBits: 0, jointBits, facets: [] },
})
const summary = (match: LatestMatch) => renderToStaticMarkup(<MatchExplanation match={match} />)

describe('MatchExplanation', () => {
  it('says how much of a fingerprint match came from the agreeing parts taken together', () => {
    expect(summary(matched(4.2))).toMatch(
      /4\.2 bits of it because no other stored device shares all the parts/,
    )
  })

  it('leaves it out where it would read as nothing (hundredths of a bit on a small server) or is unknown', () => {
    for (const joint of [0.014, 0, undefined]) expect(summary(matched(joint))).not.toMatch(/of it because/)
  })
})
