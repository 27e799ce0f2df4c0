'use client'

import { useCallback, useState } from 'react'
import type { Team } from '@/contracts/console'
import { type Role, roleWords } from '@/contracts/roles'
import { FormField } from '../FormField'
import { LoadedView } from '../LoadedView'
import { ErrorNote } from '../Notes'
import { ScrollFrame } from '../ScrollFrame'
import { Cell, Row, Table } from '../Table'
import { Time } from '../Time'
import { useConfirmation } from '../useConfirmation'
import { useLoaded } from '../useLoaded'
import { callConsole } from './api'
import styles from './console.module.css'
import { ShownOnce } from './ShownOnce'

const roles: Role[] = ['analyst', 'admin', 'owner']

/** The team (owners only): who has which role, invitation links, role changes and removals. */
export function TeamPanel() {
  const load = useCallback(() => callConsole('GET /api/console/team'), [])
  const { loaded, reload } = useLoaded(load)
  const [error, setError] = useState<string | null>(null)
  const [link, setLink] = useState<string | null>(null)
  const [inviteRole, setInviteRole] = useState<Role>('analyst')
  /** The operator whose removal waits for a yes. */
  const removal = useConfirmation<string>()

  async function run(action: () => Promise<unknown>) {
    setError(null)
    try {
      await action()
      await reload()
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : 'That did not work.')
    }
  }

  return (
    <section aria-labelledby="team-heading" className={styles.section}>
      <h2 id="team-heading">Team</h2>
      <p className="muted">
        {roles.map((role) => (
          <span key={role}>{roleWords[role]}. </span>
        ))}
      </p>
      {error && <ErrorNote>{error}</ErrorNote>}
      <LoadedView loaded={loaded} loading="Loading the team…">
        {(team: Team) => (
          <div className={styles.stack}>
            <ScrollFrame label="Operators, scrolling sideways">
              <Table columns={['Operator', 'Role', 'Since', { name: 'Actions', hidden: true }]}>
                {team.operators.map((member) => (
                  <Row key={member.id}>
                    <Cell label="Operator">
                      {member.username} {member.you && <span className="badge">you</span>}{' '}
                      {member.singleSignOn && <span className="badge">single sign-on</span>}
                    </Cell>
                    <Cell label="Role">
                      {member.singleSignOn ? (
                        <span>
                          {member.role} <span className="muted">(from the identity provider)</span>
                        </span>
                      ) : (
                        <select
                          className={styles.rowSelect}
                          aria-label={`Role of ${member.username}`}
                          value={member.role}
                          onChange={(event) =>
                            void run(() =>
                              callConsole('PATCH /api/console/team/:operatorId', {
                                params: { operatorId: member.id },
                                body: { role: event.target.value as Role },
                              }),
                            )
                          }
                        >
                          {roles.map((role) => (
                            <option key={role} value={role}>
                              {role}
                            </option>
                          ))}
                        </select>
                      )}
                    </Cell>
                    <Cell label="Since">
                      <Time iso={member.createdAt} />
                    </Cell>
                    <Cell>
                      {!member.you &&
                        (removal.asking === member.id ? (
                          <fieldset className={styles.confirm} onKeyDown={removal.onKeyDown}>
                            <legend>Remove {member.username}? Their sessions end at once.</legend>
                            <button
                              type="button"
                              className="button button-danger"
                              onClick={() =>
                                void run(async () => {
                                  await callConsole('DELETE /api/console/team/:operatorId', {
                                    params: { operatorId: member.id },
                                  })
                                  removal.done()
                                })
                              }
                            >
                              Yes, remove {member.username}
                            </button>
                            <button
                              type="button"
                              className="button button-secondary"
                              ref={removal.safeChoice}
                              onClick={removal.keep}
                            >
                              Keep {member.username}
                            </button>
                          </fieldset>
                        ) : (
                          <button
                            type="button"
                            className="button button-secondary"
                            ref={removal.asker}
                            onClick={() => removal.ask(member.id)}
                          >
                            Remove<span className="visually-hidden"> {member.username}</span>
                          </button>
                        ))}
                    </Cell>
                  </Row>
                ))}
              </Table>
            </ScrollFrame>
            {team.invitations.length > 0 && (
              <ul className={styles.reasons}>
                {team.invitations.map((invitation) => (
                  <li key={invitation.id}>
                    An invitation as {invitation.role} by {invitation.createdBy}, open until{' '}
                    <Time iso={invitation.expiresAt} />{' '}
                    <button
                      type="button"
                      className={styles.linkButton}
                      onClick={() =>
                        void run(() =>
                          callConsole('DELETE /api/console/invitations/:invitationId', {
                            params: { invitationId: invitation.id },
                          }),
                        )
                      }
                    >
                      Withdraw<span className="visually-hidden"> the invitation as {invitation.role}</span>
                    </button>
                  </li>
                ))}
              </ul>
            )}
            {link ? (
              <ShownOnce
                message="Send this link to the person you invite. It works once, for 7 days, and is not shown again."
                label="Invitation link"
                secret={link}
                onDone={() => setLink(null)}
              />
            ) : (
              <form
                className={styles.row}
                noValidate
                onSubmit={(event) => {
                  event.preventDefault()
                  void run(async () => {
                    const { token } = await callConsole('POST /api/console/invitations', {
                      body: { role: inviteRole },
                    })
                    // In the fragment: never sent to a server, so never in an access log or a Referer.
                    setLink(`${window.location.origin}/#invitation=${encodeURIComponent(token)}`)
                  })
                }}
              >
                <FormField label="Invite as" layout="inline">
                  {(control) => (
                    <select
                      {...control}
                      value={inviteRole}
                      onChange={(event) => setInviteRole(event.target.value as Role)}
                    >
                      {roles.map((role) => (
                        <option key={role} value={role}>
                          {role}
                        </option>
                      ))}
                    </select>
                  )}
                </FormField>
                <button type="submit" className="button button-secondary">
                  Create an invitation link
                </button>
              </form>
            )}
          </div>
        )}
      </LoadedView>
    </section>
  )
}
