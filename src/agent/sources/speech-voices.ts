import { hash, UNSUPPORTED, type Unsupported } from '../marker'

/** Installed speech-synthesis voices; they load asynchronously, so wait briefly for them. */
export async function speechVoices(): Promise<{ count: number; hash: string } | Unsupported> {
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
  return {
    count: voices.length,
    hash: hash(voices.map((voice) => `${voice.name}:${voice.lang}:${voice.localService}`).join()),
  }
}
