import type { SignupDecision } from '@/contracts/console'
import styles from './console.module.css'

/** A decision's outcome in words. */
export const outcomeLabels = { allow: 'allowed', challenge: 'challenged', deny: 'denied' } as const

/**
 * A sign-up decision's outcome as a badge, then how its challenge went: "after a solved challenge"
 * for an attempt that solved one, "· answered: allowed" for a challenge a later attempt answered
 * (the two are one sign-up, so the challenge is not waiting on anything).
 */
export function OutcomeBadge({
  decision,
}: {
  decision: Pick<SignupDecision, 'outcome' | 'challengeSolved' | 'answer'>
}) {
  const { outcome, challengeSolved, answer } = decision
  return (
    <>
      <span className={`badge ${styles[`outcome_${outcome}`]}`}>{outcomeLabels[outcome]}</span>
      {challengeSolved && <span className="muted"> after a solved challenge</span>}
      {answer && (
        <>
          {' '}
          <span className={`muted ${styles.answerNote}`}>
            · answered{answer.outcome && `: ${outcomeLabels[answer.outcome]}`}
          </span>
        </>
      )}
    </>
  )
}
