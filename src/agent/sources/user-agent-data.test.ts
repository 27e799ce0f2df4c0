import { describe, expect, it } from 'vitest'
import { absent, withMockedNavigator } from '../../../tests/support/browser-globals'
import { collectComponent } from '../../../tests/support/collect-component'
import { userAgentData } from './user-agent-data'

// What Chrome 141 on Windows answers getHighEntropyValues, low-entropy fields included.
const highEntropy = {
  brands: [{ brand: 'Google Chrome', version: '141' }],
  mobile: false,
  platform: 'Windows',
  platformVersion: '19.0.0',
  architecture: 'x86',
  bitness: '64',
  model: '',
  wow64: false,
  uaFullVersion: '141.0.7390.55',
  fullVersionList: [
    { brand: 'Google Chrome', version: '141.0.7390.55' },
    { brand: 'Not?A_Brand', version: '8.0.0.0' },
    { brand: 'Chromium', version: '141.0.7390.55' },
  ],
}

function clientHints(answer: () => Promise<unknown>) {
  const asked: string[][] = []
  const data = {
    getHighEntropyValues(hints: string[]) {
      asked.push(hints)
      return answer()
    },
  }
  return { data, asked }
}

describe('userAgentData', () => {
  it('is the high-entropy client hints, without the GREASE brand and the deprecated full version', async () => {
    const { data, asked } = clientHints(async () => highEntropy)
    await withMockedNavigator({ userAgentData: data }, async () => {
      expect(await userAgentData()).toEqual({
        platform: 'Windows',
        platformVersion: '19.0.0',
        architecture: 'x86',
        bitness: '64',
        model: '',
        mobile: false,
        wow64: false,
        fullVersionList: [
          { brand: 'Google Chrome', version: '141.0.7390.55' },
          { brand: 'Chromium', version: '141.0.7390.55' },
        ],
      })
    })
    expect(asked).toEqual([
      ['platform', 'platformVersion', 'architecture', 'bitness', 'model', 'fullVersionList', 'wow64'],
    ])
  })

  it('drops every spelling of the GREASE brand and keeps hints the browser withholds as missing', async () => {
    const { data } = clientHints(async () => ({
      platform: 'macOS',
      fullVersionList: [
        { brand: 'Not.A/Brand', version: '99.0.0.0' },
        { brand: 'Not A(Brand', version: '24' },
        { brand: 'Microsoft Edge', version: '141.0.3537.57' },
      ],
    }))
    await withMockedNavigator({ userAgentData: data }, async () => {
      const value = await userAgentData()
      expect(value).toMatchObject({
        platform: 'macOS',
        fullVersionList: [{ brand: 'Microsoft Edge', version: '141.0.3537.57' }],
      })
      expect(JSON.parse(JSON.stringify(value))).toEqual({
        platform: 'macOS',
        fullVersionList: [{ brand: 'Microsoft Edge', version: '141.0.3537.57' }],
      })
    })
  })

  it('is unsupported outside Chromium', async () => {
    await withMockedNavigator({ userAgentData: absent }, async () => {
      expect(await userAgentData()).toBe('unsupported')
    })
  })

  it('rejects where the browser refuses the hints, and collect records the error', async () => {
    const { data } = clientHints(async () => {
      throw new DOMException('The operation is insecure.', 'NotAllowedError')
    })
    await withMockedNavigator({ userAgentData: data }, async () => {
      await expect(userAgentData()).rejects.toThrow('The operation is insecure.')
      expect(await collectComponent('userAgentData')).toEqual({
        error: 'NotAllowedError: The operation is insecure.',
        duration: expect.any(Number),
      })
    })
  })

  it('times out in collect where the browser never answers', async () => {
    const { data } = clientHints(() => new Promise(() => undefined))
    await withMockedNavigator({ userAgentData: data }, async () => {
      expect(await collectComponent('userAgentData')).toEqual({
        error: 'Timeout: no answer within 200 ms',
        duration: expect.any(Number),
      })
    })
  })
})
