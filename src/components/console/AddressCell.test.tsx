// @vitest-environment happy-dom
import { cleanup, render } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { AddressCell } from './AddressCell'

afterEach(cleanup)

const cell = (ip: string | null) =>
  render(
    <table>
      <tbody>
        <tr>
          <AddressCell ip={ip} ipInfo={undefined} />
        </tr>
      </tbody>
    </table>,
  ).container.querySelector('td')

describe('AddressCell', () => {
  it('lets an IPv6 address wrap at its colons, in a part of the cell that may wrap, its text whole', () => {
    const address = cell('2a02:8108:1a40:5e00:4c1e:9b7a:3f21:c0d4')
    expect(address?.textContent).toBe('2a02:8108:1a40:5e00:4c1e:9b7a:3f21:c0d4')
    expect(address?.querySelectorAll('wbr')).toHaveLength(7)
    expect(address?.querySelector('wbr')?.parentElement?.className).toMatch(/address/)
  })

  it('keeps an IPv4 address whole', () => {
    const address = cell('198.51.100.7')
    expect(address?.innerHTML).toBe('198.51.100.7')
  })

  it('shows a dash for an event without an address', () => {
    expect(cell(null)?.textContent).toBe('—')
  })
})
