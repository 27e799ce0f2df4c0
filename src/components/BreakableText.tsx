import { Fragment } from 'react'

/**
 * A long unbroken value (an email or IP address) that may wrap before each dot, at sign and colon,
 * as style guides break addresses, rather than at any letter: `<wbr>` adds no character, so it
 * reads, copies and searches as the same text. CSS may still break a part longer than the line.
 */
export function BreakableText({ text }: { text: string }) {
  const parts = text.split(/(?=[.@:])/)
  return (
    <>
      {parts.map((part, index) => (
        // The parts are the text's own, in order: their index is their identity.
        // biome-ignore lint/suspicious/noArrayIndexKey: the parts never move.
        <Fragment key={index}>
          {index > 0 && <wbr />}
          {part}
        </Fragment>
      ))}
    </>
  )
}
