import { describe, expect, it } from 'vitest'
import { absent, withMockedGlobals } from '../../../tests/support/browser-globals'
import { collectComponent } from '../../../tests/support/collect-component'
import { codecs } from './codecs'

type Answer = '' | 'maybe' | 'probably'

/** What a browser answers for each media type: canPlayType, and MediaSource.isTypeSupported. */
function browser(play: Record<string, Answer>, stream: string[]) {
  const asked: string[] = []
  const document = {
    createElement: (tag: string) => ({
      tagName: tag.toUpperCase(),
      canPlayType: (type: string) => {
        asked.push(type)
        return play[type] ?? ''
      },
    }),
  }
  const MediaSource = { isTypeSupported: (type: string) => stream.includes(type) }
  return { document, MediaSource, asked }
}

// Chrome on Linux: H.264, VP8/VP9, AV1, AAC, MP3, Vorbis, Opus, FLAC, WAV; no HEVC, Theora or HLS.
const chromeLinux = () =>
  browser(
    {
      'video/mp4; codecs="avc1.42E01E"': 'probably',
      'video/mp4; codecs="av01.0.05M.08"': 'probably',
      'video/webm; codecs="vp8"': 'probably',
      'video/webm; codecs="vp9"': 'probably',
      'video/x-matroska': 'maybe',
      'audio/mp4; codecs="mp4a.40.2"': 'probably',
      'audio/mpeg': 'probably',
      'audio/ogg; codecs="vorbis"': 'probably',
      'audio/ogg; codecs="opus"': 'probably',
      'audio/webm; codecs="opus"': 'probably',
      'audio/flac': 'probably',
      'audio/wav; codecs="1"': 'probably',
      'audio/x-m4a': 'maybe',
    },
    [
      'video/mp4; codecs="avc1.42E01E"',
      'video/mp4; codecs="av01.0.05M.08"',
      'video/webm; codecs="vp8"',
      'video/webm; codecs="vp9"',
      'audio/mp4; codecs="mp4a.40.2"',
      'audio/mpeg',
      'audio/webm; codecs="opus"',
    ],
  )

describe('codecs', () => {
  it('is two letters per media type, in a fixed order: plays (p, m, -) and streams (s, -)', () => {
    const { document, MediaSource, asked } = chromeLinux()
    const value = withMockedGlobals({ document, MediaSource }, () => codecs())
    // Video, one pair per type: H.264, HEVC, AV1, VP8, VP9, Theora, Matroska, HLS.
    const video = 'ps' + '--' + 'pspsps' + '--' + 'm-' + '--'
    // Audio: AAC, MP3, Vorbis, Opus in Ogg, Opus in WebM, FLAC, WAV, M4A.
    const audio = 'psps' + 'p-p-' + 'ps' + 'p-p-' + 'm-'
    expect(value).toBe(video + audio)
    expect(value).toHaveLength(32)
    expect(asked).toHaveLength(16)
  })

  it('marks nothing as streamable without Media Source Extensions (iPhone Safari before 17.1)', () => {
    const { document } = chromeLinux()
    const value = withMockedGlobals({ document, MediaSource: absent }, () => codecs())
    expect(value).toBe('p---p-p-p---m---' + 'p-p-p-p-p-p-p-m-')
  })

  it('throws where canPlayType throws, and collect records the error', async () => {
    const document = {
      createElement: () => ({
        canPlayType: () => {
          throw new Error('blocked')
        },
      }),
    }
    await withMockedGlobals({ document, MediaSource: absent }, async () => {
      expect(() => codecs()).toThrow('blocked')
      expect(await collectComponent('codecs')).toEqual({
        error: 'Error: blocked',
        duration: expect.any(Number),
      })
    })
  })
})
