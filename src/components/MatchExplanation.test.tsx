import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import type { LatestMatch } from '@/contracts/device'
import { MatchExplanation } from './MatchExplanation'

const matched = (jointBits: number | undefined, recencyBits?: number): LatestMatch => ({
  method: 'fingerprint',
  confidence: 0.94,
  evidence: { bits: 27.8, twinBits: 3, contextBits: 0, jointBits, recencyBits, facets: [] },
})
const summary = (match: LatestMatch) => renderToStaticMarkup(<MatchExplanation match={match} />)

describe('MatchExplanation', () => {
  it('says how much of a fingerprint match came from the agreeing parts taken together', () => {
    expect(summary(matched(4.2))).toMatch(
      /4\.2 bits of it because no other stored device shares all the parts/,
    )
  })

  it('says when the agreeing parts together counted less, as other stored devices are the same kind of machine', () => {
    expect(summary(matched(-2.3))).toMatch(
      /\(2\.3 bits less than its parts alone say, as other stored devices are the same kind of machine/,
    )
    expect(summary(matched(-2.3))).not.toMatch(/of it because/)
  })

  it('leaves it out where it would read as nothing (hundredths of a bit on a small server) or is unknown', () => {
    for (const joint of [0.014, -0.02, 0, undefined])
      expect(summary(matched(joint))).not.toMatch(/of it because|less than its parts/)
  })

  it('names when the device was last seen only where it counted a tenth of a bit or more, either way', () => {
    expect(summary(matched(0, -1.3))).toMatch(/last seen counted −1\.3 bits|last seen counted -1\.3 bits/)
    expect(summary(matched(0, 0.8))).toMatch(/last seen counted \+0\.8 bits/)
    for (const recency of [-0.04, 0.01, 0, undefined])
      expect(summary(matched(0, recency))).not.toMatch(/last seen/)
  })
})
