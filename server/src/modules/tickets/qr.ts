import QRCode from 'qrcode';

/**
 * A ticket code's QR as a PNG for the ticket email, rendered by the `qrcode` package: error
 * correction level M (a ticket code of about 125 bytes fits comfortably) and the standard
 * four-module quiet zone, so phone cameras and door scanners read it from a printed or
 * on-screen mail.
 */
export function qrPng(text: string, scale = 6): Promise<Buffer> {
  return QRCode.toBuffer(text, { type: 'png', errorCorrectionLevel: 'M', margin: 4, scale });
}
