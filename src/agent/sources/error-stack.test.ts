import { describe, expect, it } from 'vitest'
import { withMockedProperties } from '../../../tests/support/browser-globals'
import { collectComponent } from '../../../tests/support/collect-component'
import { errorStack } from './error-stack'

type CallSite = { getFunctionName(): string | null; getFileName(): string; getLineNumber(): number }
type FormatStack = (error: Error, sites: CallSite[]) => string | undefined

/** Runs the callback with V8 formatting stacks by `format` (Error.prepareStackTrace, V8's own hook). */
const withStackFormat = <Result>(format: FormatStack, callback: () => Result) =>
  withMockedProperties(Error, { prepareStackTrace: format }, callback)

describe('errorStack', () => {
  it('is V8’s message and frame format in a V8 engine (Node here, Chromium in a browser)', () => {
    expect(errorStack()).toEqual({ message: "Cannot read properties of null (reading 'probe')", frame: 'v8' })
  })

  it('tells the name@file:line:column frames of SpiderMonkey and JavaScriptCore apart', () => {
    const gecko: FormatStack = (_, sites) =>
      sites
        .map((site) => `${site.getFunctionName() ?? ''}@${site.getFileName()}:${site.getLineNumber()}:7`)
        .join('\n')
    expect(withStackFormat(gecko, () => errorStack())).toEqual({
      message: "Cannot read properties of null (reading 'probe')",
      frame: 'gecko-webkit',
    })
  })

  it('is "other" where the stack has no frame with a position, or no stack at all', () => {
    expect(
      withStackFormat(
        () => 'TypeError: probe\n    in errorStack',
        () => errorStack(),
      ).frame,
    ).toBe('other')
    expect(
      withStackFormat(
        () => undefined,
        () => errorStack(),
      ).frame,
    ).toBe('other')
  })

  it('never fails: collect records a value', async () => {
    expect(await collectComponent('errorStack')).toEqual({
      value: { message: expect.any(String), frame: 'v8' },
      duration: expect.any(Number),
    })
  })
})
