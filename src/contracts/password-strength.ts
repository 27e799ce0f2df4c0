import { ZxcvbnFactory } from '@zxcvbn-ts/core'
import * as common from '@zxcvbn-ts/language-common'
import * as english from '@zxcvbn-ts/language-en'

let checker: ZxcvbnFactory | undefined

/**
 * Whether a password is too easy to guess (zxcvbn score below 3 of 4: common passwords, keyboard
 * walks, dictionary words with obvious substitutions, the person's own name or email).
 * Built on first use: the dictionaries are large.
 */
export function weakPasswordFeedback(password: string, userInputs: string[] = []): string | undefined {
  checker ??= new ZxcvbnFactory({
    dictionary: { ...common.dictionary, ...english.dictionary },
    graphs: common.adjacencyGraphs,
    translations: english.translations,
  })
  const result = checker.check(password, userInputs)
  if (result.score >= 3) return undefined
  const hint = result.feedback.warning || result.feedback.suggestions[0]
  return `This password is too easy to guess${hint ? `: ${hint.replace(/\.$/, '').toLowerCase()}` : ''}.`
}

/** The rule for operator passwords (the console and TESSERA_ADMIN_PASSWORD): the same as sign-up's. */
export function weakOperatorPasswordFeedback(password: string): string | undefined {
  return weakPasswordFeedback(password, ['admin', 'tessera', 'operator', 'console'])
}
