/*
 * Camera QR scanning for the door (lazy: loaded only when the camera is switched on, and jsqr only
 * once the camera runs). Frames are drawn onto a canvas a few times a second and decoded with jsqr;
 * every code read is reported, and the desk's state machine (lib/check-in-desk.ts) decides whether it
 * is a new scan and holds the scanner's state (starting, scanning, failed and why).
 */
import { useEffect, useRef } from 'react';
import { Spinner } from '../../../components/ui/spinner';
import { t, useLanguage } from '../../../lib/i18n';
import type { CameraProblem } from '../lib/check-in-desk';

const FRAME_EVERY_MS = 120;

function cameraProblem(error: unknown): CameraProblem {
  const name = error instanceof DOMException || error instanceof Error ? error.name : '';
  if (name === 'NotAllowedError' || name === 'SecurityError') return 'refused';
  if (name === 'NotFoundError' || name === 'OverconstrainedError') return 'no-camera';
  if (name === 'NotReadableError') return 'in-use';
  return 'failed';
}

function problemText(problem: CameraProblem): string {
  if (problem === 'needs-https') return t('tickets.cameraNeedsHttps');
  if (problem === 'refused') return t('tickets.cameraRefused');
  if (problem === 'no-camera') return t('tickets.noCamera');
  if (problem === 'in-use') return t('tickets.cameraInUse');
  return t('tickets.cameraFailed');
}

export interface QrScannerProps {
  status: 'starting' | 'scanning' | 'failed';
  problem: CameraProblem | null;
  onStarted: () => void;
  onFailed: (problem: CameraProblem) => void;
  /** Every code read from a frame. */
  onCode: (code: string) => void;
}

export default function QrScanner({ status, problem, onStarted, onFailed, onCode }: QrScannerProps) {
  useLanguage();
  const videoRef = useRef<HTMLVideoElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  // The camera starts once per mount; the latest callbacks are read through this.
  const report = useRef({ onStarted, onFailed, onCode });
  useEffect(() => {
    report.current = { onStarted, onFailed, onCode };
  }, [onStarted, onFailed, onCode]);

  useEffect(() => {
    let cancelled = false;
    let stream: MediaStream | null = null;
    let timer = 0;

    const start = async () => {
      if (!window.isSecureContext || !navigator.mediaDevices?.getUserMedia) {
        report.current.onFailed('needs-https');
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
        report.current.onStarted();

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
            if (code) report.current.onCode(code);
          }
          timer = window.setTimeout(frame, FRAME_EVERY_MS);
        };
        frame();
      } catch (error) {
        if (cancelled) return;
        report.current.onFailed(cameraProblem(error));
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
      {status === 'failed' ? (
        <p className="form-message form-message--error" role="alert">
          {problem ? problemText(problem) : null}
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
