import { describe, expect, it } from 'vitest'
import { absent, getter, withMockedNavigator } from '../../../tests/support/browser-globals'
import { collectComponent } from '../../../tests/support/collect-component'
import { plugins } from './plugins'

/** A PluginArray as Chromium builds it: array-like plugins, each an array-like of its MIME types. */
function pluginArray(entries: [name: string, types: string[]][]) {
  return entries.map(([name, types]) =>
    Object.assign(
      types.map((type) => ({ type, suffixes: 'pdf' })),
      { name, filename: 'internal-pdf-viewer' },
    ),
  )
}

describe('plugins', () => {
  it('lists each plugin with its MIME types, in the browser’s order', () => {
    const list = pluginArray([
      ['PDF Viewer', ['application/pdf', 'text/pdf']],
      ['Chrome PDF Viewer', ['application/pdf', 'text/pdf']],
      ['Empty', []],
    ])
    withMockedNavigator({ plugins: list }, () =>
      expect(plugins()).toEqual([
        'PDF Viewer|application/pdf,text/pdf',
        'Chrome PDF Viewer|application/pdf,text/pdf',
        'Empty|',
      ]),
    )
  })

  it('is an empty list where there are no plugins, or no navigator.plugins', () => {
    withMockedNavigator({ plugins: [] }, () => expect(plugins()).toEqual([]))
    withMockedNavigator({ plugins: absent }, () => expect(plugins()).toEqual([]))
  })

  it('throws where reading the list throws, and collect records the error', async () => {
    const refused = getter(() => {
      throw new Error('blocked')
    })
    await withMockedNavigator({ plugins: refused }, async () => {
      expect(() => plugins()).toThrow('blocked')
      expect(await collectComponent('plugins')).toEqual({
        error: 'Error: blocked',
        duration: expect.any(Number),
      })
    })
  })
})
