/*
 * A ticket's QR code. qrcode.react is loaded lazily so only pages that show tickets download it, and a code is
 * drawn once its card comes near the screen: encoding one (eight masks tried and scored) is ~10 ms of a phone's
 * main thread, and /profile lists a page of tickets at once.
 */
import { lazy, Suspense } from 'react';
import { useNearViewport } from '../../../hooks/use-near-viewport';

const QRCodeSVG = lazy(() => import('qrcode.react').then((module) => ({ default: module.QRCodeSVG })));

export function TicketQr({ code, label, size = 168 }: { code: string; label: string; size?: number }) {
  const [ref, near] = useNearViewport<HTMLDivElement>();
  const placeholder = <span className="ticket-qr__placeholder" aria-hidden="true" />;
  return (
    <div ref={ref} className="ticket-qr" role="img" aria-label={label} style={{ width: size, height: size }}>
      {near ? (
        <Suspense fallback={placeholder}>
          <QRCodeSVG value={code} size={size} level="M" marginSize={2} aria-hidden="true" focusable="false" className="ticket-qr__svg" />
        </Suspense>
      ) : (
        placeholder
      )}
    </div>
  );
}
