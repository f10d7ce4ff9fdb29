import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** One message as the loopback SMTP server received it. */
export interface ReceivedMail {
  from: string;
  to: string[];
  /** The message as sent: headers, then the body with its quoted-printable encoding. */
  raw: string;
  subject: string;
  /** The raw message with quoted-printable undone (soft breaks joined, =XX decoded). */
  text: string;
}

/** A running loopback SMTP server: its URL for SMTP_URL, what it received so far, and how to stop it. */
export interface SmtpSink {
  url: string;
  received: ReceivedMail[];
  close(): Promise<void>;
}

/**
 * Starts a real SMTP server on 127.0.0.1 (any free port, no TLS, any or no login), so the app talks SMTP to it
 * exactly as it would to a mail relay, and keeps every message it receives.
 */
export async function startSmtpSink(): Promise<SmtpSink> {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          subject: raw.match(/^Subject: (.*)$/m)?.[1]?.trim() ?? '',
          text: raw
            .replace(/=\r?\n/g, '')
            .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
