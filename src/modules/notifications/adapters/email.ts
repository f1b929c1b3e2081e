import net from 'node:net';
import type { EgressGuard } from '../../../core/egress-guard.js';
import type { ChannelSettings } from '../../../db/schema/index.js';
import { asDeliveryError, DeliveryError, type Outbound } from './outbound.js';

export interface EmailTarget {
  smtp: NonNullable<ChannelSettings['smtp']>;
  password: string | undefined;
  from: string;
  to: string[];
  /** The host part of Message-IDs (the console's host name). */
  messageIdDomain: string;
}

/**
 * Sends the notification as one mail (plain text and HTML) over SMTP. The server's host name is
 * resolved and checked by the egress guard, and the connection goes to the checked address; the name is
 * still used for TLS (SNI and certificate check). `secure` is TLS from the first byte (port 465);
 * otherwise `starttls` says whether the upgrade is required (the default: credentials never travel in
 * clear), used when offered, or never tried. The Message-ID is the same on every retry of a delivery.
 */
export async function sendEmail(egress: EgressGuard, target: EmailTarget, outbound: Outbound) {
  const { smtp } = target;
  return asDeliveryError(async () => {
    const address = await egress.resolve(smtp.host);
    // Loaded on first use: most gateways never send mail, and every start would pay for it.
    const { default: nodemailer } = await import('nodemailer');
    const plain = !smtp.secure;
    const transport = nodemailer.createTransport({
      host: address,
      port: smtp.port,
      secure: smtp.secure,
      requireTLS: plain && smtp.starttls === 'required',
      ignoreTLS: plain && smtp.starttls === 'off',
      ...(net.isIP(smtp.host) ? {} : { servername: smtp.host }),
      tls: smtp.caPem ? { ca: smtp.caPem } : {},
      ...(smtp.username ? { auth: { user: smtp.username, pass: target.password ?? '' } } : {}),
      connectionTimeout: outbound.timeoutMs,
      greetingTimeout: outbound.timeoutMs,
      socketTimeout: outbound.timeoutMs,
      dnsTimeout: outbound.timeoutMs,
      logger: false,
    });
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new DeliveryError(`SMTP send timed out after ${outbound.timeoutMs} ms`)),
        outbound.timeoutMs,
      );
    });
    try {
      const { message } = outbound;
      await Promise.race([
        transport.sendMail({
          from: target.from,
          to: target.to,
          subject: `[infragate] ${message.title}`,
          text: message.text,
          html: message.html,
          messageId: `<${outbound.deliveryId}@${target.messageIdDomain}>`,
          headers: { 'X-Infragate-Event': outbound.kind, 'X-Infragate-Delivery': outbound.deliveryId },
        }),
        deadline,
      ]);
      return { httpStatus: null };
    } finally {
      clearTimeout(timer);
      transport.close();
    }
  });
}
