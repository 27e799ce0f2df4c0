const types = [
  'video/mp4; codecs="avc1.42E01E"',
  'video/mp4; codecs="hvc1.1.6.L93.B0"',
  'video/mp4; codecs="av01.0.05M.08"',
  'video/webm; codecs="vp8"',
  'video/webm; codecs="vp9"',
  'video/ogg; codecs="theora"',
  'video/x-matroska',
  'application/vnd.apple.mpegurl',
  'audio/mp4; codecs="mp4a.40.2"',
  'audio/mpeg',
  'audio/ogg; codecs="vorbis"',
  'audio/ogg; codecs="opus"',
  'audio/webm; codecs="opus"',
  'audio/flac',
  'audio/wav; codecs="1"',
  'audio/x-m4a',
]

/** Which media types the browser plays (canPlayType) and streams (Media Source Extensions). */
export function codecs(): string {
  const video = document.createElement('video')
  const mse = typeof MediaSource === 'undefined' ? undefined : MediaSource
  return types
    .map((type) => {
      const play = video.canPlayType(type)
      const stream = mse?.isTypeSupported(type) ? 's' : '-'
      return `${play === 'probably' ? 'p' : play === 'maybe' ? 'm' : '-'}${stream}`
    })
    .join('')
}
