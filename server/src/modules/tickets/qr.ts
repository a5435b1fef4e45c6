import QRCode from 'qrcode';

/**
 * pngjs (which `qrcode` renders PNGs with) tries all five PNG row filters on every row by default and keeps the
 * best: 60 % of a confirmed ticket's CPU in the checkout bench. A QR code is rows of flat blocks, so filter 2
 * ("Up": most rows repeat the row above) alone makes it 2.6× faster for a 5.6 KB PNG instead of 2.4 KB.
 * `filterType` is pngjs's option; qrcode passes `rendererOpts` through to it (its types only list deflate's).
 */
const pngOptions = { deflateLevel: 9, filterType: 2 };

/**
 * A ticket code's QR as a PNG for the ticket email, rendered by the `qrcode` package: error
 * correction level M (a ticket code of about 125 bytes fits comfortably) and the standard
 * four-module quiet zone, so phone cameras and door scanners read it from a printed or
 * on-screen mail.
 */
export function qrPng(text: string, scale = 6): Promise<Buffer> {
  return QRCode.toBuffer(text, { type: 'png', errorCorrectionLevel: 'M', margin: 4, scale, rendererOpts: pngOptions });
}
