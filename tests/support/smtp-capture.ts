import type { AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'

export interface CapturedMail {
  to: string[]
  raw: string
}

/**
 * A local SMTP server (smtp-server) that keeps what it is sent, for tests of mailed codes: plain
 * SMTP on a free loopback port, no TLS and no sign-in, as a relay on one's own machine would be.
 */
export async function startSmtpCapture() {
  const mails: CapturedMail[] = []
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('end', () => {
        mails.push({
          to: session.envelope.rcptTo.map((recipient) => recipient.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        })
        callback()
      })
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.server.address() as AddressInfo
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    /** The 6-digit code of the latest mail to `to`. */
    codeFor(to: string): string | undefined {
      const mail = mails.filter((entry) => entry.to.includes(to)).at(-1)
      return mail?.raw.match(/Your sign-up code: (\d{6})/)?.[1]
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
