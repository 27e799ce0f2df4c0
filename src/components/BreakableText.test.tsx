import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { BreakableText } from './BreakableText'

describe('BreakableText', () => {
  it('keeps the text whole and offers a break before each dot and at sign', () => {
    expect(renderToStaticMarkup(<BreakableText text="katherine.johnson@subdomain.example.com" />)).toBe(
      'katherine<wbr/>.johnson<wbr/>@subdomain<wbr/>.example<wbr/>.com',
    )
  })

  it('offers a break before each colon of an IPv6 address', () => {
    expect(renderToStaticMarkup(<BreakableText text="2001:db8:85a3::8a2e" />)).toBe(
      '2001<wbr/>:db8<wbr/>:85a3<wbr/>:<wbr/>:8a2e',
    )
  })

  it("offers a break at a web address's punctuation, never inside its scheme's slashes", () => {
    expect(
      renderToStaticMarkup(
        <BreakableText text="https://shop.example:8443/sign-up/form?utm_campaign=spring&a=b#top" />,
      ),
    ).toBe(
      'https://<wbr/>shop<wbr/>.example<wbr/>:8443<wbr/>/sign-up<wbr/>/form<wbr/>?utm_campaign<wbr/>=spring<wbr/>&amp;a<wbr/>=b<wbr/>#top',
    )
  })

  it('leaves a value without dots alone', () => {
    expect(renderToStaticMarkup(<BreakableText text="admin" />)).toBe('admin')
  })
})
