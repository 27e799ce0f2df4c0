import { hash } from '../hash'
import { UNSUPPORTED, type Unsupported } from '../unsupported'

/**
 * Installed speech-synthesis voices, one short digest each (sorted), so that the server compares
 * them as a set: an added or removed voice keeps the rest in common. They load asynchronously, so
 * wait briefly for them.
 */
export async function speechVoices(): Promise<string[] | Unsupported> {
  const synthesis = window.speechSynthesis
  if (!synthesis) return UNSUPPORTED
  let voices = synthesis.getVoices()
  if (voices.length === 0) {
    voices = await new Promise<SpeechSynthesisVoice[]>((resolve) => {
      const done = () => resolve(synthesis.getVoices())
      synthesis.addEventListener('voiceschanged', done, { once: true })
      setTimeout(done, 30)
    })
  }
  return voices.map((voice) => hash(`${voice.name}:${voice.lang}:${voice.localService}`)).sort()
}
