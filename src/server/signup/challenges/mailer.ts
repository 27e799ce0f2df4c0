import 'server-only'
import nodemailer from 'nodemailer'
import { getEnv } from '../../env'
import { isLoopbackHost } from '../../http/host-name'
import { processWide } from '../../process-wide'

/** What the email-code challenge needs of a mail server: send one plain-text message. */
export interface Mailer {
  send(message: { to: string; subject: string; text: string }): Promise<void>
}

/**
 * A mailer over SMTP (`smtp://user:password@host:587`, `smtps://…:465`), from `from`. Plain
 * `smtp://` must upgrade with STARTTLS (someone on the path could otherwise strip it and read the
 * password and the codes), except to a relay on this machine; a slow server fails in seconds.
 */
export function smtpMailer(url: string, from: string): Mailer {
  const { protocol, hostname, port, username, password } = new URL(url)
  const secure = protocol === 'smtps:'
  const loopback = isLoopbackHost(hostname)
  const transport = nodemailer.createTransport({
    host: hostname.replace(/^\[|\]$/g, ''),
    port: port ? Number(port) : secure ? 465 : 587,
    secure,
    ...(username && { auth: { user: decodeURIComponent(username), pass: decodeURIComponent(password) } }),
    requireTLS: !secure && !loopback,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  })
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
