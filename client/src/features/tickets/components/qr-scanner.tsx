/*
 * Camera QR scanning for the door (lazy: loaded only when the camera is switched on, and jsqr only
 * once the camera runs). Frames are drawn onto a canvas a few times a second and decoded with jsqr.
 */
import { useEffect, useRef, useState } from 'react';
import { Spinner } from '../../../components/ui/spinner';
import { t, useLanguage } from '../../../lib/i18n';

const FRAME_EVERY_MS = 120;
const SAME_CODE_PAUSE_MS = 4_000;
const ANY_CODE_PAUSE_MS = 1_200;

function cameraProblem(error: unknown): string {
  const name = error instanceof DOMException || error instanceof Error ? error.name : '';
  if (name === 'NotAllowedError' || name === 'SecurityError') return t('tickets.cameraRefused');
  if (name === 'NotFoundError' || name === 'OverconstrainedError') return t('tickets.noCamera');
  if (name === 'NotReadableError') return t('tickets.cameraInUse');
  return t('tickets.cameraFailed');
}

export default function QrScanner({ onCode }: { onCode: (code: string) => void }) {
  useLanguage();
  const videoRef = useRef<HTMLVideoElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const onCodeRef = useRef(onCode);
  const lastRef = useRef<{ code: string; at: number }>({ code: '', at: 0 });
  const [status, setStatus] = useState<'starting' | 'scanning' | 'error'>('starting');
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    onCodeRef.current = onCode;
  }, [onCode]);

  useEffect(() => {
    let cancelled = false;
    let stream: MediaStream | null = null;
    let timer = 0;

    const start = async () => {
      if (!window.isSecureContext || !navigator.mediaDevices?.getUserMedia) {
        setProblem(t('tickets.cameraNeedsHttps'));
        setStatus('error');
        return;
      }
      try {
        const [{ default: jsQR }, media] = await Promise.all([
          import('jsqr'),
          navigator.mediaDevices.getUserMedia({ video: { facingMode: { ideal: 'environment' } }, audio: false }),
        ]);
        if (cancelled) {
          media.getTracks().forEach((track) => track.stop());
          return;
        }
        stream = media;
        const video = videoRef.current;
        const canvas = canvasRef.current;
        const context = canvas?.getContext('2d', { willReadFrequently: true });
        if (!video || !canvas || !context) return;
        video.srcObject = media;
        await video.play();
        if (cancelled) return;
        setStatus('scanning');

        const frame = () => {
          if (cancelled) return;
          if (video.readyState >= video.HAVE_CURRENT_DATA && video.videoWidth > 0) {
            const scale = Math.min(1, 720 / Math.max(video.videoWidth, video.videoHeight));
            const width = Math.round(video.videoWidth * scale);
            const height = Math.round(video.videoHeight * scale);
            if (canvas.width !== width) canvas.width = width;
            if (canvas.height !== height) canvas.height = height;
            context.drawImage(video, 0, 0, width, height);
            const found = jsQR(context.getImageData(0, 0, width, height).data, width, height, { inversionAttempts: 'dontInvert' });
            const code = found?.data?.trim();
            const now = Date.now();
            const last = lastRef.current;
            if (code && now - last.at > ANY_CODE_PAUSE_MS && (code !== last.code || now - last.at > SAME_CODE_PAUSE_MS)) {
              lastRef.current = { code, at: now };
              navigator.vibrate?.(60);
              onCodeRef.current(code);
            }
          }
          timer = window.setTimeout(frame, FRAME_EVERY_MS);
        };
        frame();
      } catch (error) {
        if (cancelled) return;
        setProblem(cameraProblem(error));
        setStatus('error');
      }
    };
    void start();

    return () => {
      cancelled = true;
      window.clearTimeout(timer);
      stream?.getTracks().forEach((track) => track.stop());
    };
  }, []);

  return (
    <div className="qr-scanner">
      {status === 'error' ? (
        <p className="form-message form-message--error" role="alert">
          {problem}
        </p>
      ) : (
        <>
          <div className="qr-scanner__frame">
            <video ref={videoRef} className="qr-scanner__video" muted playsInline aria-label={t('tickets.cameraView')} />
            <span className="qr-scanner__target" aria-hidden="true" />
          </div>
          <p className="qr-scanner__hint muted" role="status">
            {status === 'starting' ? (
              <>
                <Spinner size="sm" /> {t('tickets.startingCamera')}
              </>
            ) : (
              t('tickets.pointCamera')
            )}
          </p>
        </>
      )}
      <canvas ref={canvasRef} hidden />
    </div>
  );
}
