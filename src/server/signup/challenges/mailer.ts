import 'server-only'
import nodemailer from 'nodemailer'
import { getEnv } from '../../env'
import { processWide } from '../../process-wide'

/** What the email-code challenge needs of a mail server: send one plain-text message. */
export interface Mailer {
  send(message: { to: string; subject: string; text: string }): Promise<void>
}

/** A mailer over SMTP (`smtp://user:password@host:587`, `smtps://…:465`), from `from`. */
export function smtpMailer(url: string, from: string): Mailer {
  const transport = nodemailer.createTransport(url)
  return {
    async send(message) {
      await transport.sendMail({ from, ...message })
    },
  }
}

/** The server's own mailer, from TESSERA_SMTP_URL (null when it is unset); one per process. */
export function configuredMailer(): Mailer | null {
  const { TESSERA_SMTP_URL: url, TESSERA_SMTP_FROM: from } = getEnv()
  if (!url) return null
  return processWide('mailer', () => smtpMailer(url, from))
}
