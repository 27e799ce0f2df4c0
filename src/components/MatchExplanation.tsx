import type { LatestMatch } from '@/contracts/device'
import { formatBits } from './format'
import { ScrollFrame } from './ScrollFrame'
import { Cell, Row, RowHeader, Table } from './Table'

const facetNames: Record<string, string> = {
  browser: 'Browser build',
  locale: 'Languages and formats',
  time: 'Time zone',
  screen: 'Screen',
  zoom: 'Zoom level',
  hardware: 'Hardware',
  graphics: 'Graphics card',
  webgpu: 'WebGPU adapter',
  audio: 'Audio stack',
  rendering: 'Fonts and text rendering',
  voices: 'Speech voices',
  engine: 'JavaScript engine',
  accessibility: 'Accessibility settings',
  colorScheme: 'Colour scheme',
  window: 'Window',
  privacySettings: 'Privacy settings',
}
const levelNames: Record<string, string> = {
  exact: 'the same',
  previous: 'back to an earlier value',
  close: 'slightly changed',
  different: 'different',
}

/** A share of the evidence is named only where it shows as a tenth of a bit or more (on a small server the joint adds hundredths). */
const shows = (bits: number) => Math.abs(bits) >= 0.05

function summary(match: LatestMatch): string {
  const bits = match.evidence ? `${formatBits(match.evidence.bits)} of evidence` : 'no evidence'
  if (match.method === 'token')
    return 'Recognised by the identifier this browser stored (a cookie or local storage). Its fingerprint was compared too, and does not contradict it.'
  if (match.method === 'fingerprint') {
    const { jointBits = 0, contextBits = 0, recencyBits = 0 } = match.evidence ?? {}
    const joint = !shows(jointBits)
      ? ''
      : jointBits > 0
        ? ` (${formatBits(jointBits)} of it because no other stored device shares all the parts that agree)`
        : ` (${formatBits(-jointBits)} less than its parts alone say, as other stored devices are the same kind of machine: their graphics, audio and fonts come together)`
    const address = shows(contextBits) ? `, ${formatBits(contextBits)} from the network address` : ''
    const recency = shows(recencyBits)
      ? `; when it was last seen counted ${formatBits(recencyBits, { signed: true })}`
      : ''
    return `Recognised by its fingerprint alone, without any stored identifier: ${bits} that this is the device seen before${joint}${address}${recency}.`
  }
  return match.evidence
    ? `No stored device matched well enough: the closest one had ${bits}, not enough to tell it from a new device.`
    : 'No stored device came close: this is a new device for this server.'
}

/** How this visit was matched: by the stored identifier, or by which evidence, facet by facet. */
export function MatchExplanation({ match }: { match: LatestMatch }) {
  return (
    <>
      <p className="muted" data-testid="match-summary">
        {summary(match)}
      </p>
      {match.evidence && match.evidence.facets.length > 0 && (
        <ScrollFrame label="Evidence per part, scrolling sideways">
          <Table
            caption="Evidence per part of the fingerprint"
            captionHidden
            columns={['Part of the fingerprint', 'Compared with the stored device', 'Evidence']}
          >
            {match.evidence.facets.map((facet) => (
              <Row key={facet.facet}>
                <RowHeader>{facetNames[facet.facet] ?? facet.facet}</RowHeader>
                <Cell label="Compared">{levelNames[facet.level] ?? facet.level}</Cell>
                <Cell label="Evidence">{formatBits(facet.bits, { signed: true })}</Cell>
              </Row>
            ))}
          </Table>
        </ScrollFrame>
      )}
    </>
  )
}
