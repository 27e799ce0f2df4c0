import { Fragment } from 'react'

/**
 * Where a long value may wrap, as style guides break addresses: before each dot, at sign, colon, and
 * a web address's single slash, question mark, hash, ampersand and equals sign, and after its `://`
 * (never inside it).
 */
const BREAKS = /(?=[.@?#&=])|(?=:(?!\/\/))|(?<=:\/\/)|(?<![:/])(?=\/(?!\/))/

/**
 * A long unbroken value (an email, IP or web address) that may wrap at its punctuation (BREAKS)
 * rather than at any letter: `<wbr>` adds no character, so it reads, copies and searches as the same
 * text. CSS may still break a part longer than the line.
 */
export function BreakableText({ text }: { text: string }) {
  const parts = text.split(BREAKS)
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
