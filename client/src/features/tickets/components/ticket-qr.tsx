/* A ticket's QR code. qrcode.react is loaded lazily so only pages that show tickets download it. */
import { lazy, Suspense } from 'react';

const QRCodeSVG = lazy(() => import('qrcode.react').then((module) => ({ default: module.QRCodeSVG })));

export function TicketQr({ code, label, size = 168 }: { code: string; label: string; size?: number }) {
  return (
    <div className="ticket-qr" role="img" aria-label={label} style={{ width: size, height: size }}>
      <Suspense fallback={<span className="ticket-qr__placeholder" aria-hidden="true" />}>
        <QRCodeSVG value={code} size={size} level="M" marginSize={2} aria-hidden="true" focusable="false" className="ticket-qr__svg" />
      </Suspense>
    </div>
  );
}
